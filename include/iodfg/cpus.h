/* SPDX-License-Identifier: MIT */
/* The processors a process may use, which thread counts start from: its affinity mask, and a
 * process-wide limit for processes that share the processors they see with others (iodfg-mpi's
 * processes on one node when mpirun or Slurm does not bind them). */
#ifndef IODFG_CPUS_H
#define IODFG_CPUS_H

#include <stddef.h>
#include <stdint.h>

/* The processors this process may run on: its affinity mask (taskset, a Slurm allocation,
 * mpirun's binding of one process to one core), else the online ones; at most the limit set
 * with iodfg_cpu_limit; at least 1. More threads than processors only take turns. */
unsigned iodfg_cpu_count(void);
/* From now on iodfg_cpu_count gives at most n (0: no limit). Set it before threads start. */
void iodfg_cpu_limit(unsigned n);

/* Words of a processor mask below (1024 processors, as glibc's cpu_set_t). */
#define IODFG_CPU_MASK_WORDS 16
/* This process's affinity mask into mask (bit c of word c / 64: processor c), else the online
 * processors. */
void iodfg_cpu_mask(uint64_t mask[IODFG_CPU_MASK_WORDS]);
/* The fair share of processors of process mine of the n processes of one node whose masks are
 * masks[p * IODFG_CPU_MASK_WORDS ...]: each of its processors counts 1/k when k of the masks hold
 * it, rounded down; at least 1. Disjoint masks give each its own count; n processes that all
 * see the same c processors get c / n each. */
unsigned iodfg_cpu_share(const uint64_t *masks, size_t n, size_t mine);

#endif
