/*
 * dls_simd.h - DLS_VECTOR_CLONES: compile a hot checking loop twice, for
 * AVX2 and for the x86-64 baseline (SSE2), and let the loader pick the one
 * the CPU runs (GCC/clang function multiversioning through an ifunc).
 *
 * Only for loops whose result does not depend on the instruction set (a
 * range check, a tolerance test): never on a loop body whose results must
 * be bit-identical everywhere. Empty where the compiler or the target
 * cannot do it.
 */
#ifndef DLS_SIMD_H
#define DLS_SIMD_H

#if defined(__x86_64__) && defined(__ELF__) && !defined(DLS_NO_CLONES) &&                      \
	(defined(__clang__) ? __clang_major__ >= 14 : __GNUC__ >= 6)
#define DLS_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define DLS_VECTOR_CLONES
#endif

#endif
