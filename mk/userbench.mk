# mk/userbench.mk - the user-space benchmark (user/bench/ubench.c), booted as
# init on Vellum and on Debian's Linux by tools/ubench.sh
# (docs/benchmarks.md, "The user-space benchmark").
#
#   make ubench          build/user/bench/ubench (static i386, our libc)
#   make bench           the user-space benchmark on Vellum, then the
#                        in-kernel benchmarks (tools/bench.sh)
#   make bench-linux     the user-space benchmark on Vellum and on Debian's
#                        Linux 6.1 in the same QEMU: one table with the ratio
#                        (make bench LINUX=1 is the same)
# Included after mk/user.mk (it uses U_OUT, U_CFLAGS, U_LINK).

UBENCH ?= $(U_OUT)/bench/ubench

$(U_OUT)/obj/bench/ubench.o: user/bench/ubench.c
	@mkdir -p $(dir $@)
	@$(quiet) CC $@
	$(Q)$(CC) $(U_CFLAGS) -c $< -o $@
$(UBENCH): $(U_OUT)/obj/bench/ubench.o $(U_CRT0) $(U_LIBC)
	@mkdir -p $(dir $@)
	@$(quiet) LD $@
	$(Q)$(U_LINK)

ubench: $(UBENCH)
all: $(UBENCH)
.PHONY: ubench bench-linux
-include $(U_OUT)/obj/bench/ubench.d
