# mk/fuzz.mk: the long fuzzing campaigns (included by the Makefile).
#
#   make fuzz       tools/tests/ext2fuzz.sh with FUZZ_IMAGES (1500) corrupt
#                   images, then a summary of the outcomes per class
#                   (docs/systests.md).  make check runs the same script
#                   with a short campaign.  FUZZ_SEED picks the first seed.
FUZZ_IMAGES ?= 1500
FUZZ_SEED   ?= 1

fuzz: all $(TKERNEL)
	BUILD=$(BUILD) FUZZ_IMAGES=$(FUZZ_IMAGES) FUZZ_SEED=$(FUZZ_SEED) FUZZ_SUMMARY=1 \
	    bash tools/tests/ext2fuzz.sh

.PHONY: fuzz
