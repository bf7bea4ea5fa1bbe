# mk/labs.mk: course labs (included by the Makefile; docs/labs/README.md).
#
#   make grade [LAB=name]  run a lab's graded tests (tools/grade): a line per
#                          test with its points, then "score: X/Y", and
#                          $(BUILD)/grade/results.json (Gradescope's format).
#                          In a student tree (tools/mklab) the lab is known
#                          from .lab; LAB=all grades every lab.
#                          GRADE_EXTRA=dir adds an instructor's private tests.
#   make handin            the student's change against the lab's base commit
#                          (tag lab-base) as one patch, handin-LAB.patch (with
#                          no git: a tarball of the tree, handin-LAB.tar.gz)
#   make labs-list         tools/mklab --list

LAB_NAME = $(or $(LAB),$(shell sed -n 's/^LAB=//p' .lab 2>/dev/null))

grade:
	@sh tools/setup.sh
	@BUILD=$(BUILD) GRADE_EXTRA=$(GRADE_EXTRA) tools/grade $(LAB_NAME)

handin:
	@test -n "$(LAB_NAME)" || { echo "handin: which lab? (no .lab here; make handin LAB=name)"; exit 1; }
	@if git rev-parse -q --verify lab-base >/dev/null 2>&1; then \
	    idx=$$(mktemp) && cp "$$(git rev-parse --git-path index)" "$$idx" && \
	    GIT_INDEX_FILE=$$idx git add -A . && \
	    GIT_INDEX_FILE=$$idx git diff --cached --binary lab-base -- . ':!$(BUILD)' > handin-$(LAB_NAME).patch; \
	    rc=$$?; rm -f "$$idx"; test $$rc -eq 0 || exit 1; \
	    echo "wrote handin-$(LAB_NAME).patch ($$(grep -c '^diff --git' handin-$(LAB_NAME).patch) files changed against lab-base): hand in this file"; \
	else \
	    tar --exclude=./$(BUILD) --exclude='./handin-*' -czf handin-$(LAB_NAME).tar.gz . && \
	    echo "wrote handin-$(LAB_NAME).tar.gz (no git repository with a lab-base tag here: the whole tree)"; \
	fi

labs-list:
	@tools/mklab --list

.PHONY: grade handin labs-list
