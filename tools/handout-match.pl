#!/usr/bin/perl
# tools/handout-match.pl: compares a handout's pasted output block with the
# output of the run that produces it, or rewrites the block from that
# output.  Layer: host tooling (perl-base, which every Debian has); called
# by tools/handout-runs, which owns the runs and the handouts' markers.
#
#   handout-match.pl check  BLOCK REAL    exit 0 if BLOCK matches REAL, else
#                                         print a diff (handout -/+ run) and exit 1
#   handout-match.pl update BLOCK REAL    print the block rewritten from REAL
#
# Lines are compared normalized: what legitimately differs between two
# builds of the same tree becomes a placeholder (kernel addresses of six or
# more hex digits, or in decimal (0xc0000000 and up: ten digits from 32...),
# register dumps' 8-digit words, backtrace entries [<c01...>], symbol
# offsets +0x1f/0x80, file:line, "line N", lx-page's "pfn N", the source
# line number GDB prints before a line, "(N s)" durations, "jiffies N" and
# "timeout at N" of the kernel's task dumps, the names of temporary
# directories, the free-page counts of an nr_free_pages() assertion: any
# change in the kernel's size moves them).  Small hex values (page->flags, error codes) are compared
# as they are.  A handout may cut a run's output: a line that is only
# "[...]" stands for any number of lines, "[... N more WHAT ...]" for
# exactly N lines (update rewrites N).  update keeps the block's cuts,
# takes every other line from the run, drops the lines the run no longer
# prints and adds the ones it prints now.
use strict;
use warnings;

my ($mode, $bfile, $rfile) = @ARGV;
die "usage: $0 check|update BLOCK REAL\n" unless $mode && $mode =~ /^(check|update)$/ && defined $rfile;

sub slurp {
	open(my $f, '<', $_[0]) or die "$_[0]: $!\n";
	my @l = map { s/\r//g; s/\s+$//; $_ } <$f>;
	return @l;
}
my @h = slurp($bfile);
my @r = slurp($rfile);

sub norm {
	my $s = shift;
	$s =~ s/\[<[0-9a-f]{8}>\]/[<ADDR>]/g;
	$s =~ s/\+0x[0-9a-f]+\/0x[0-9a-f]+/+OFF/g;
	$s =~ s/0x[0-9a-f]{6,}/0xADDR/g;
	$s =~ s/\b(?:3[2-9]|4[0-2])\d{8}\b/DADDR/g;	# a kernel address in decimal (%ld)
	$s =~ s/\b[0-9a-f]{8}\b/XXXXXXXX/g;
	$s =~ s/\b([\w\/.-]+\.[chSs]):\d+/$1:N/g;
	$s =~ s/\bline \d+/line N/g;
	$s =~ s/\bpfn \d+/pfn N/g;			# lx-page's page frame number
	$s =~ s/^\d+(\t)/N$1/;
	$s =~ s/\(\d+ s\)/(N s)/g;
	$s =~ s/\b(jiffies|timeout at) \d+/$1 N/g;
	$s =~ s/\b(vellum-[\w-]+)\.\w{6}\b/$1.XXXXXX/g;
	$s =~ s/(nr_free_pages\(\).* \()\d+ != \d+\)/$1FREE != FREE)/;	# moves with the kernel's size
	return $s;
}
# elision(LINE): undef for an ordinary line, -1 for "[...]", N for "[... N more ...]"
sub elision {
	my $s = shift;
	return -1 if $s =~ /^\s*\[\.\.\.\]$/;
	return $1 if $s =~ /^\s*\[\.\.\. (\d+) more .*\.\.\.\]$/;
	return undef;
}
my @hn = map { norm($_) } @h;
my @rn = map { norm($_) } @r;
my @he = map { elision($_) } @h;
my ($H, $R) = (scalar @h, scalar @r);

# cost[i][j]: the fewest differences aligning handout lines i.. with run
# lines j..: a handout line the run does not print, a run line the handout
# does not show (outside a cut) and a counted cut of the wrong length cost 1.
my (@cost, @how);
for (my $i = $H; $i >= 0; $i--) {
	for (my $j = $R; $j >= 0; $j--) {
		my ($best, $b) = (1e9, undef);
		if ($i == $H) {
			($best, $b) = ($R - $j, ['ins']);
		} elsif (defined $he[$i]) {
			for (my $k = 0; $j + $k <= $R; $k++) {
				my $c = $cost[$i + 1][$j + $k] + (($he[$i] >= 0 && $he[$i] != $k) ? 1 : 0);
				($best, $b) = ($c, ['cut', $k]) if $c < $best;
			}
		} else {
			if ($j < $R && $hn[$i] eq $rn[$j] && $cost[$i + 1][$j + 1] < $best) {
				($best, $b) = ($cost[$i + 1][$j + 1], ['eq']);
			}
			if ($j < $R && $cost[$i][$j + 1] + 1 < $best) {
				($best, $b) = ($cost[$i][$j + 1] + 1, ['ins']);
			}
			if ($cost[$i + 1][$j] + 1 < $best) {
				($best, $b) = ($cost[$i + 1][$j] + 1, ['del']);
			}
		}
		$cost[$i][$j] = $best;
		$how[$i][$j] = $b;
	}
}

my ($i, $j) = (0, 0);
my (@out, @diff);
while ($i < $H || $j < $R) {
	my $b = $how[$i][$j];
	if ($b->[0] eq 'eq') {
		push @out, $r[$j];
		push @diff, "  $h[$i]";
		$i++; $j++;
	} elsif ($b->[0] eq 'ins') {
		push @out, $r[$j];
		push @diff, "+ $r[$j]";
		$j++;
	} elsif ($b->[0] eq 'del') {
		push @diff, "- $h[$i]";
		$i++;
	} else {
		my $k = $b->[1];
		my $l = $h[$i];
		if ($he[$i] >= 0) {
			push @diff, "- $l" if $k != $he[$i];
			$l =~ s/\[\.\.\. \d+ more/[... $k more/;
			push @diff, "+ $l" if $k != $he[$i];
		}
		push @out, $l;
		push @diff, "  $l" if $he[$i] < 0 || $k == $he[$i];
		$i++; $j += $k;
	}
}

if ($mode eq 'update') {
	print "$_\n" for @out;
	exit 0;
}
exit 0 if $cost[0][0] == 0;
print "$_\n" for @diff;
exit 1;
