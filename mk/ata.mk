# mk/ata.mk: disk images for the `ata` kernel suite (tools/suites/ata.conf).
# Sector k of test-ata.img (2048 sectors, 1 MiB) begins with k as a 32-bit
# little-endian number; test-ata-b.img (1024 sectors) with 0x10000000 + k;
# byte i >= 4 of sector k is (k + i) & 0xff in both.  Built by perl, so the
# images are the same byte for byte on every machine.
ATA_PATTERN = perl -e 'my ($$n, $$base) = @ARGV; binmode STDOUT; \
	for my $$k (0 .. $$n - 1) { print pack("V", $$base + $$k), \
	pack("C*", map { ($$k + $$_) & 255 } 4 .. 511) }'

$(BUILD)/test-ata.img: mk/ata.mk
	@mkdir -p $(BUILD)
	@$(quiet) GEN $@
	$(Q)$(ATA_PATTERN) 2048 0 > $@.tmp && mv $@.tmp $@
$(BUILD)/test-ata-b.img: mk/ata.mk
	@mkdir -p $(BUILD)
	@$(quiet) GEN $@
	$(Q)$(ATA_PATTERN) 1024 268435456 > $@.tmp && mv $@.tmp $@

ata-images: $(BUILD)/test-ata.img $(BUILD)/test-ata-b.img
.PHONY: ata-images
