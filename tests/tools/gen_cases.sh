#!/bin/sh
# Write N small strace files (cid a or b, 4..12 calls each, shared and private paths, some with
# -ttt epoch stamps) into DIR, for the MPI tests and benchmarks: gen_cases.sh DIR N [LINES]
set -eu
dir=$1 n=$2 lines=${3:-0}
mkdir -p "$dir"
LC_ALL=C awk -v dir="$dir" -v n="$n" -v lines="$lines" 'BEGIN {
  for (f = 0; f < n; f++) {
    cid = f % 3 ? "a" : "b"; host = sprintf("n%03d", int(f / 48)); pid = 20000 + f
    out = sprintf("%s/%s_%s_%d.st", dir, cid, host, pid)
    epoch = f % 97 == 0
    t = 3600 * 9 + (f % 50) * 0.0003
    k = lines > 0 ? lines : 4 + f % 9
    for (i = 0; i < k; i++) {
      t += 0.000020 + ((f * 31 + i * 17) % 40) / 1000000
      stamp = epoch ? sprintf("%.6f", 1753944587 + t) : \
        sprintf("%02d:%02d:%09.6f", int(t / 3600), int(t / 60) % 60, t - 60 * int(t / 60))
      path = sprintf("/p/scratch/run%d/d%d/file%d", f % 2, (f + i) % 7, i % 5)
      dur = sprintf("<0.%06d>", 3 + (f * 7 + i * 13) % 90)
      kind = (f + i) % 6
      if (kind == 0)
        line = sprintf("openat(AT_FDCWD, \"%s\", O_RDONLY) = 3<%s> %s", path, path, dur)
      else if (kind == 1)
        line = sprintf("read(3<%s>, \"\"..., 4096) = %d %s", path, (f * 13 + i) % 4097, dur)
      else if (kind == 2)
        line = sprintf("write(4<%s>, \"\"..., 65536) = %d %s", path, 1024 * (1 + (f + i) % 64), dur)
      else if (kind == 3)
        line = sprintf("lseek(3<%s>, %d, SEEK_SET) = %d %s", path, i * 512, i * 512, dur)
      else if (kind == 4)
        line = sprintf("fstat(3<%s>, {st_mode=S_IFREG|0644, st_size=%d, ...}) = 0 %s", path, f, dur)
      else
        line = sprintf("close(3<%s>) = 0 %s", path, dur)
      printf "%d %s %s\n", pid, stamp, line > out
    }
    close(out)
  }
}'
