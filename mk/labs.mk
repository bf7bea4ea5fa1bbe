# mk/labs.mk: course labs (included by the Makefile; docs/labs/README.md).
#
#   make grade [LAB=name]  run a lab's graded tests (tools/grade): a line per
#                          test with its points, then "score: X/Y", and
#                          $(BUILD)/grade/results.json (Gradescope's format).
#                          In a student tree (tools/mklab) the lab is known
#                          from .lab; LAB=all grades every lab.
#                          GRADE_EXTRA=dir adds an instructor's private tests.
#   make handin            the student's change against the lab's base commit
#                          (tag lab-base of tools/mklab LAB DIR, or
#                          lab-base/NN-LAB of mklab --all-branches) as one
#                          patch, handin-LAB.patch (with no git: a tarball of
#                          the tree, handin-LAB.tar.gz)
#   make gradescope LAB=name   (in this tree) the lab's Gradescope autograder,
#                          $(BUILD)/gradescope-LAB.zip (tools/mkgradescope):
#                          setup.sh, run_autograder, the lab's base (the
#                          student tree, tag lab-base) and GRADE_EXTRA=dir's
#                          private tests ("# visibility:" lines)
#   make labs-list         tools/mklab --list

LAB_NAME = $(or $(LAB),$(shell sed -n 's/^LAB=//p' .lab 2>/dev/null))
LAB_NN   = $(or $(shell sed -n 's/^NN=//p' .lab 2>/dev/null),$(shell awk -v n='$(LAB_NAME)' '$$2 == n { print $$1 }' tools/labs/list 2>/dev/null))

grade:
	@sh tools/setup.sh
	@BUILD=$(BUILD) GRADE_EXTRA=$(GRADE_EXTRA) tools/grade $(LAB_NAME)

handin:
	@test -n "$(LAB_NAME)" || { echo "handin: which lab? (no .lab here; make handin LAB=name)"; exit 1; }
	@base=; for b in lab-base lab-base/$(LAB_NN)-$(LAB_NAME); do \
	    git rev-parse -q --verify "$$b^{commit}" >/dev/null 2>&1 && { base=$$b; break; }; done; \
	if [ -n "$$base" ]; then \
	    idx=$$(mktemp) && cp "$$(git rev-parse --git-path index)" "$$idx" && \
	    GIT_INDEX_FILE=$$idx git add -A . && \
	    GIT_INDEX_FILE=$$idx git diff --cached --binary "$$base" -- . ':!$(BUILD)' ':!handin-*' > handin-$(LAB_NAME).patch; \
	    rc=$$?; rm -f "$$idx"; test $$rc -eq 0 || exit 1; \
	    echo "wrote handin-$(LAB_NAME).patch ($$(grep -c '^diff --git' handin-$(LAB_NAME).patch) files changed against $$base): hand in this file"; \
	else \
	    tar --exclude=./$(BUILD) --exclude='./handin-*' -czf handin-$(LAB_NAME).tar.gz . && \
	    echo "wrote handin-$(LAB_NAME).tar.gz (no git repository with a lab-base or lab-base/$(LAB_NN)-$(LAB_NAME) tag here: the whole tree)"; \
	fi

gradescope:
	@test -n "$(LAB)" || { echo "gradescope: which lab? make gradescope LAB=name (make labs-list names them)"; exit 1; }
	@tools/mkgradescope $(LAB) $(BUILD)/gradescope-$(LAB).zip $(GRADE_EXTRA)

labs-list:
	@tools/mklab --list

.PHONY: grade handin gradescope labs-list

# The kernel's compiler, linker, objcopy and flags (without -g and the
# dependency files), one a line: tools/mklab compiles the later labs'
# prebuilt objects of a student tree with them (docs/labs/README.md).
labs-kflags:
	@printf '%s\n' '$(CC)' '$(LD)' '$(OBJCOPY)' '$(NM)' '$(filter-out -g -MMD -MP,$(CFLAGS))' '$(filter-out -g -MMD -MP,$(ASFLAGS))' \
	    '$(KTEST_DEFS)' '-DCONFIG_LOCKDEP'
