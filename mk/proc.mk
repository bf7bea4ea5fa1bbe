# mk/proc.mk: the process layer's build extras.
# kernel/test/proc_blobs.S embeds user test programs (user/tests/proc_*.c, built
# by mk/user.mk) into the kernel for test=proc; it needs them built first.
PROC_TEST_PROGS := $(patsubst user/tests/%.c,$(BUILD)/user/tests/%,$(wildcard user/tests/proc_*.c))
$(BUILD)/kernel/test/proc_blobs.o: $(PROC_TEST_PROGS)
$(BUILD)/kernel/test/proc_blobs.o: ASFLAGS += -Wa,-I$(BUILD)/user/tests
