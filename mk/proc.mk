# mk/proc.mk: the process layer's build extras.
# kernel/test/proc_blobs.S embeds user test programs (user/tests/proc_*.c, built
# by mk/user.mk) into the test kernel for test=proc; it needs them built first.
PROC_TEST_PROGS := $(patsubst user/tests/%.c,$(BUILD)/user/tests/%,$(wildcard user/tests/proc_*.c))
$(TBUILD)/kernel/test/proc_blobs.o: $(PROC_TEST_PROGS)
$(TBUILD)/kernel/test/proc_blobs.o: ASFLAGS += -Wa,-I$(BUILD)/user/tests
