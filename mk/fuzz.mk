# mk/fuzz.mk: the long fuzzing campaigns (included by the Makefile).
#
#   make fuzz       tools/tests/ext2fuzz.sh with FUZZ_IMAGES (1500) corrupt
#                   images, then tools/tests/scfuzz.sh with SC_CHILDREN
#                   (2000) children of SC_CALLS (400) random system calls,
#                   twice; each prints a summary of its outcomes
#                   (docs/systests.md).  make check runs the same scripts
#                   with short campaigns.  FUZZ_SEED picks the first seed.
#   make powercut-ext3  tools/tests/ext3powercut.sh with EXT3_CUTS (100)
#                   power cuts per block size under the busy workload
#                   (docs/journal.md); make check runs 2 per block size.
#                   EXT3_SEED repeats a campaign's cut points.
FUZZ_IMAGES ?= 1500
FUZZ_SEED   ?= 1
SC_CHILDREN ?= 2000
SC_CALLS    ?= 400

fuzz: all $(TKERNEL)
	BUILD=$(BUILD) FUZZ_IMAGES=$(FUZZ_IMAGES) FUZZ_SEED=$(FUZZ_SEED) FUZZ_SUMMARY=1 \
	    bash tools/tests/ext2fuzz.sh
	BUILD=$(BUILD) SC_CHILDREN=$(SC_CHILDREN) SC_CALLS=$(SC_CALLS) FUZZ_SEED=$(FUZZ_SEED) \
	    FUZZ_SUMMARY=1 bash tools/tests/scfuzz.sh

EXT3_CUTS ?= 100

powercut-ext3: all user
	BUILD=$(BUILD) EXT3_CUTS=$(EXT3_CUTS) $(if $(EXT3_SEED),EXT3_SEED=$(EXT3_SEED)) \
	    bash tools/tests/ext3powercut.sh

.PHONY: fuzz powercut-ext3
