#!/usr/bin/env python3
"""Damage copies of inputs the same way for a given seed, for the damaged-input tests.

damage.py file SEED IN OUT   one file: bits flipped, cut short, or a block zeroed
damage.py dir SEED IN OUT    every file of directory IN into OUT, about half of them with bytes
                             overwritten and one in five cut short
"""
import os
import random
import sys


def damage_file(rng, data):
    mode = rng.choice(["flip", "cut", "zero"])
    if mode == "flip":
        for _ in range(rng.randint(1, 20)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif mode == "cut":
        del data[rng.randrange(len(data)):]
    else:
        i, n = rng.randrange(len(data)), rng.randint(1, 4096)
        data[i:i + n] = bytes(len(data[i:i + n]))
    return mode


def damage_dir(rng, src, dst):
    os.mkdir(dst)
    for name in sorted(os.listdir(src)):
        with open(os.path.join(src, name), "rb") as f:
            data = bytearray(f.read())
        if data and rng.random() < 0.5:
            for _ in range(rng.randint(1, 30)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.2:
            del data[rng.randrange(len(data) + 1):]
        with open(os.path.join(dst, name), "wb") as f:
            f.write(data)


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("file", "dir"):
        sys.exit(__doc__)
    kind, seed, src, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    rng = random.Random(seed)
    if kind == "dir":
        damage_dir(rng, src, dst)
        return
    with open(src, "rb") as f:
        data = bytearray(f.read())
    mode = damage_file(rng, data)
    with open(dst, "wb") as f:
        f.write(data)
    print(mode)


if __name__ == "__main__":
    main()
