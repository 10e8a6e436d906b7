#pragma once
// Four doubles handled as one: an AVX register where the build targets AVX2 and FMA
// (x86-64-v3, cmake/HostArchitecture.cmake), four scalars otherwise. For kernels on 3-vectors
// stored four doubles apart (the fourth lane zero), such as the implicit solver's sweeps over
// 3x3 blocks. Every function gives the same bits whichever way it is built, except
// multiplyAdd, which rounds once where FMA is available and twice where it is not.
// (Lanes.h is the other way round: four different constraints' numbers side by side, one
// per lane, for code written once per constraint.)
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace tinkerbox {

#if defined(__AVX2__) && defined(__FMA__)

struct Double4 {
    __m256d lanes;
};

inline Double4 load4(const double* p) { return {_mm256_loadu_pd(p)}; }
// Four floats widened to doubles (exactly).
inline Double4 load4(const float* p) { return {_mm256_cvtps_pd(_mm_loadu_ps(p))}; }
inline void store4(double* p, Double4 a) { _mm256_storeu_pd(p, a.lanes); }
inline Double4 zero4() { return {_mm256_setzero_pd()}; }
inline Double4 broadcast4(double s) { return {_mm256_set1_pd(s)}; }
inline Double4 operator+(Double4 a, Double4 b) { return {_mm256_add_pd(a.lanes, b.lanes)}; }
inline Double4 operator-(Double4 a, Double4 b) { return {_mm256_sub_pd(a.lanes, b.lanes)}; }
inline Double4 operator*(Double4 a, Double4 b) { return {_mm256_mul_pd(a.lanes, b.lanes)}; }
// a * b + c
inline Double4 multiplyAdd(Double4 a, Double4 b, Double4 c) { return {_mm256_fmadd_pd(a.lanes, b.lanes, c.lanes)}; }
// Lane L of a in every lane.
template <int L>
Double4 lane4(Double4 a) {
    return {_mm256_permute4x64_pd(a.lanes, L * 0x55)};
}
// a with its fourth lane zero.
inline Double4 firstThree(Double4 a) { return {_mm256_blend_pd(a.lanes, _mm256_setzero_pd(), 0b1000)}; }
// (sum of a's lanes, sum of b's, sum of c's, 0), each sum as (l0 + l1) + (l2 + l3).
inline Double4 laneSums3(Double4 a, Double4 b, Double4 c) {
    const __m256d ab = _mm256_hadd_pd(a.lanes, b.lanes);              // a0+a1, b0+b1, a2+a3, b2+b3
    const __m256d cz = _mm256_hadd_pd(c.lanes, _mm256_setzero_pd());  // c0+c1, 0, c2+c3, 0
    const __m256d low = _mm256_permute2f128_pd(ab, cz, 0x20);         // a0+a1, b0+b1, c0+c1, 0
    const __m256d high = _mm256_permute2f128_pd(ab, cz, 0x31);        // a2+a3, b2+b3, c2+c3, 0
    return {_mm256_add_pd(low, high)};
}
// (l0 + l2) + (l1 + l3)
inline double laneSum(Double4 a) {
    const __m128d pairs = _mm_add_pd(_mm256_castpd256_pd128(a.lanes), _mm256_extractf128_pd(a.lanes, 1));
    return _mm_cvtsd_f64(_mm_add_sd(pairs, _mm_unpackhi_pd(pairs, pairs)));
}

#else

struct Double4 {
    double lanes[4];
};

inline Double4 load4(const double* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline Double4 load4(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline void store4(double* p, Double4 a) {
    for (int l = 0; l < 4; ++l) p[l] = a.lanes[l];
}
inline Double4 zero4() { return {{0.0, 0.0, 0.0, 0.0}}; }
inline Double4 broadcast4(double s) { return {{s, s, s, s}}; }
inline Double4 operator+(Double4 a, Double4 b) {
    for (int l = 0; l < 4; ++l) a.lanes[l] += b.lanes[l];
    return a;
}
inline Double4 operator-(Double4 a, Double4 b) {
    for (int l = 0; l < 4; ++l) a.lanes[l] -= b.lanes[l];
    return a;
}
inline Double4 operator*(Double4 a, Double4 b) {
    for (int l = 0; l < 4; ++l) a.lanes[l] *= b.lanes[l];
    return a;
}
inline Double4 multiplyAdd(Double4 a, Double4 b, Double4 c) { return a * b + c; }
template <int L>
Double4 lane4(Double4 a) {
    return broadcast4(a.lanes[L]);
}
inline Double4 firstThree(Double4 a) {
    a.lanes[3] = 0.0;
    return a;
}
inline Double4 laneSums3(Double4 a, Double4 b, Double4 c) {
    const auto sum = [](const Double4& x) { return (x.lanes[0] + x.lanes[1]) + (x.lanes[2] + x.lanes[3]); };
    return {{sum(a), sum(b), sum(c), 0.0}};
}
inline double laneSum(Double4 a) { return (a.lanes[0] + a.lanes[2]) + (a.lanes[1] + a.lanes[3]); }

#endif

}  // namespace tinkerbox
