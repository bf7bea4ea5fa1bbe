# mk/images.mk: the ext2 test images (tools/mkimages.sh, tools/mkcorrupt.sh)
# and the ext3 ones of the journal layer (tools/mkjournal.sh).
# `make` builds them into build/images/; `make images-check` builds them a
# second time elsewhere and compares sha256 sums (reproducible byte for byte).
IMGDIR   := $(BUILD)/images
VPATTERN := $(BUILD)/tools/vpattern
IMAGES   := $(addprefix $(IMGDIR)/,ext2-1k.img ext2-4k.img ext2-rev0.img \
              ext2-nofiletype.img ext2-small.img)
CORRUPT  := $(addprefix $(IMGDIR)/corrupt-,base.img magic.img range.img sbptr.img \
              dirent.img loop.img)
JOURNAL  := $(addprefix $(IMGDIR)/,jbd-1k.img jbd-4k.img jbd-wrap.img jbd-wipe.img ext3-1k.img \
              jbd-badmagic.img jbd-first.img jbd-hole.img jbd-csum.img jbd-loop.img \
              jbd-errno.img jcommit-1k.img jcommit-4k.img)

all: images
images: $(IMAGES) $(CORRUPT) $(JOURNAL)

$(VPATTERN): tools/vpattern.c
	@mkdir -p $(dir $@)
	@$(quiet) HOSTCC $@
	$(Q)cc -O2 -Wall -Wextra -o $@ $<

# One stamp per script: both scripts write several images in one run.
$(IMAGES): $(IMGDIR)/.images-stamp
$(IMGDIR)/.images-stamp: tools/mkimages.sh tools/e2fsenv.sh $(VPATTERN)
	@$(quiet) IMAGES $(IMGDIR)
	$(Q)bash tools/mkimages.sh $(IMGDIR) $(VPATTERN)
	@touch $@
$(CORRUPT): $(IMGDIR)/.corrupt-stamp
$(IMGDIR)/.corrupt-stamp: tools/mkcorrupt.sh $(VPATTERN)
	@$(quiet) IMAGES $(IMGDIR)/corrupt-*.img
	$(Q)bash tools/mkcorrupt.sh $(IMGDIR) $(VPATTERN)
	@touch $@
$(JOURNAL): $(IMGDIR)/.journal-stamp
$(IMGDIR)/.journal-stamp: tools/mkjournal.sh tools/e2fsenv.sh $(VPATTERN)
	@$(quiet) IMAGES $(IMGDIR)/jbd-*.img
	$(Q)bash tools/mkjournal.sh $(IMGDIR) $(VPATTERN)
	@touch $@

images-check: images
	@rm -rf $(BUILD)/images-again
	bash tools/mkimages.sh $(BUILD)/images-again $(VPATTERN)
	bash tools/mkcorrupt.sh $(BUILD)/images-again $(VPATTERN)
	bash tools/mkjournal.sh $(BUILD)/images-again $(VPATTERN)
	@# the images the scripts make (not rootfs.img, tools/mkrootfs.sh's)
	@cd $(BUILD)/images-again && sha256sum *.img > ../images.sha256
	@cd $(IMGDIR) && sha256sum -c --quiet ../images.sha256 && \
		echo "images-check: all $$(wc -l < ../images.sha256) images identical"
	@rm -rf $(BUILD)/images-again

.PHONY: images images-check
