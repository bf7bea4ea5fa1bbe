# tools/e2fsenv.sh: the environment in which the image builders run
# e2fsprogs, so that building an image twice gives the same bytes (sourced
# by tools/mkimages.sh and tools/mkjournal.sh; `make images-check` checks
# it).  Layer: host tooling.
FAKE_TIME=1700000000                    # every inode's and the super block's times
export E2FSPROGS_FAKE_TIME=$FAKE_TIME
export MKE2FS_CONFIG=/dev/null          # ignore the host's /etc/mke2fs.conf defaults
export TZ=UTC LC_ALL=C PATH=$PATH:/usr/sbin:/sbin   # e2fsprogs: not in a Debian user's PATH
