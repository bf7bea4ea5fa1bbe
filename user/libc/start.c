/*
 * start.c - from crt0's _start to main() and back out through exit().
 */
#include <stdlib.h>

char **environ;

int main(int argc, char **argv, char **envp);
void __libc_start_main(int argc, char **argv, char **envp);

void __libc_start_main(int argc, char **argv, char **envp)
{
	environ = envp;
	exit(main(argc, argv, envp));
}
