/* include/completion.h: "wait until that thing is done", as Linux's. */
#ifndef _COMPLETION_H
#define _COMPLETION_H
#include <wait.h>
struct completion { unsigned int done; wait_queue_head_t wait; };
void init_completion(struct completion *c);
void complete(struct completion *c);       /* may be called from IRQ context */
void wait_for_completion(struct completion *c);
#endif
