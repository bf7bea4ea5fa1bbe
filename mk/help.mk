# mk/help.mk: `make help`, and what a mistyped target says.
#
#   make help    the table of make targets in README.md ("## Make targets"),
#                one line each: README.md is the one place the list is kept
#                (tools/tests/make_targets.sh checks that every .PHONY target
#                of the Makefile and mk/*.mk is in it)
#
# A goal with no rule (`make qemuu`) gets the targets that look like it and
# the pointer to `make help`, instead of make's bare "No rule to make target".
# Make's .DEFAULT recipe runs for any file make needs and has no rule for;
# for those that are not goals it keeps make's usual message (a missing
# source file), and for the .d dependency files that do not exist before
# the first build it does nothing (they are -include'd: optional).

HELP_TABLE = sed -n '/^\#\# Make targets/,/^\#\# /s/^| `\(make[^`]*\)` | \(.*\) |$$/\1\t\2/p' README.md | tr -d '`'

help:
	@$(HELP_TABLE) | awk -F'\t' '{ printf "  %-36s %s\n", $$1, $$2 }'

.DEFAULT:
	@case " $(MAKECMDGOALS) " in \
	*" $@ "*) \
	    like=$$($(HELP_TABLE) | awk -F'\t' -v want='$@' ' \
	        function dist(a, b,   i, j, la, lb, d, c) { \
	            la = length(a); lb = length(b); \
	            for (i = 0; i <= la; i++) d[i, 0] = i; \
	            for (j = 0; j <= lb; j++) d[0, j] = j; \
	            for (i = 1; i <= la; i++) for (j = 1; j <= lb; j++) { \
	                c = substr(a, i, 1) != substr(b, j, 1); \
	                d[i, j] = d[i-1, j-1] + c; \
	                if (d[i-1, j] + 1 < d[i, j]) d[i, j] = d[i-1, j] + 1; \
	                if (d[i, j-1] + 1 < d[i, j]) d[i, j] = d[i, j-1] + 1; \
	            } \
	            return d[la, lb]; \
	        } \
	        { split($$1, w, " "); t = w[2]; \
	          if (t != "" && !seen[t]++ && (dist(t, want) <= 2 || index(t, want) == 1 || index(want, t) == 1)) \
	              printf "%s make %s", (n++ ? "," : ""), t }'); \
	    echo "make: there is no target '$@'.$${like:+ Did you mean:$$like?}" >&2; \
	    echo "make: 'make help' lists every target, one line each." >&2; \
	    exit 1 ;; \
	esac; \
	case "$@" in *.d) exit 0 ;; esac; \
	echo "make: *** No rule to make target '$@'." >&2; exit 1

.PHONY: help
