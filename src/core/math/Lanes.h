#pragma once
// Four numbers side by side, one per lane of an AVX2 vector (two SSE2 ones elsewhere), and
// 3-vectors made of them: the projective terms' local step (ProjectiveTerm.h) projects four
// constraints at once this way, so that they share each square root and division. Every
// operation acts lane by lane, so a lane's numbers are those of its constraint computed alone,
// whichever lane it lands in. Branches become selections (both sides computed, one kept per
// lane). The helpers are forced inline (EIGEN_ALWAYS_INLINE): a call would pass the vectors
// through memory. (Double4.h holds one 3-vector per register instead, for 3 x 3 block kernels.)
#include <array>
#include <bit>
#include <cstdint>

#include "core/math/Types.h"

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace tinkerbox {

using Lanes = Eigen::Array4d;
inline constexpr int kLanes = 4;

struct LaneVec3 {
    Lanes x, y, z;
};

EIGEN_ALWAYS_INLINE LaneVec3 operator+(const LaneVec3& a, const LaneVec3& b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
EIGEN_ALWAYS_INLINE LaneVec3 operator-(const LaneVec3& a, const LaneVec3& b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
EIGEN_ALWAYS_INLINE LaneVec3 operator*(const Lanes& s, const LaneVec3& a) { return {s * a.x, s * a.y, s * a.z}; }
EIGEN_ALWAYS_INLINE LaneVec3 operator*(const LaneVec3& a, const Lanes& s) { return {a.x * s, a.y * s, a.z * s}; }
EIGEN_ALWAYS_INLINE LaneVec3& operator+=(LaneVec3& a, const LaneVec3& b) { return a = a + b; }

EIGEN_ALWAYS_INLINE Lanes dot(const LaneVec3& a, const LaneVec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
EIGEN_ALWAYS_INLINE LaneVec3 cross(const LaneVec3& a, const LaneVec3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Lane k holds value(k).
template <class Value>
EIGEN_ALWAYS_INLINE Lanes lanes(Value value) {
    return Lanes(value(0), value(1), value(2), value(3));
}
// Lane k holds the 3 numbers at v + offset(k).
template <class Offset>
EIGEN_ALWAYS_INLINE LaneVec3 laneVectors(const VecX& v, Offset offset) {
    return {lanes([&](int k) { return v[offset(k)]; }), lanes([&](int k) { return v[offset(k) + 1]; }),
            lanes([&](int k) { return v[offset(k) + 2]; })};
}
// Elements begin .. end - 1 of count of them, in their first (half 0) or second half (1), split
// at a whole block of lanes: for work on elements kept in blocks of four that two threads share.
inline std::array<Index, 2> laneHalf(Index count, int half) {
    const Index middle = count / 2 / kLanes * kLanes;
    return half == 0 ? std::array<Index, 2>{0, middle} : std::array<Index, 2>{middle, count};
}

// Lane k holds particle particles[k]'s 3-vector of v (a block of four elements' corner).
// With AVX: each particle's (x, y) as one 2-vector, two of them per 4-vector, unpacked into
// the x and y rows, and the z numbers paired: 7 shuffles a corner where assembling the rows
// number by number takes 15, in the local step's gathers of corners (nothing read past a
// particle's 3 numbers).
EIGEN_ALWAYS_INLINE LaneVec3 laneVectors(const VecX& v, const std::array<std::int32_t, kLanes>& particles) {
#if defined(__AVX__)
    const auto at = [&](int k) { return v.data() + 3 * static_cast<Index>(particles[static_cast<std::size_t>(k)]); };
    const __m256d xy02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(at(0))), _mm_loadu_pd(at(2)), 1);
    const __m256d xy13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(at(1))), _mm_loadu_pd(at(3)), 1);
    const __m128d z01 = _mm_loadh_pd(_mm_load_sd(at(0) + 2), at(1) + 2),
                  z23 = _mm_loadh_pd(_mm_load_sd(at(2) + 2), at(3) + 2);
    LaneVec3 out;
    _mm256_storeu_pd(out.x.data(), _mm256_unpacklo_pd(xy02, xy13));
    _mm256_storeu_pd(out.y.data(), _mm256_unpackhi_pd(xy02, xy13));
    _mm256_storeu_pd(out.z.data(), _mm256_insertf128_pd(_mm256_castpd128_pd256(z01), z23, 1));
    return out;
#else
    return laneVectors(v, [&](int k) { return 3 * static_cast<Index>(particles[static_cast<std::size_t>(k)]); });
#endif
}

// Where the vectors are four wide (AVX), four lanes' 3-vectors are turned into rows by one 4x4
// transpose of vectors (Eigen's ptranspose: 8 shuffles) instead of number by number (an
// extraction and a store each). (Eigen's vector types carry alignment attributes that a
// template argument drops, harmlessly.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
namespace lane_packets {
using Packet = Eigen::internal::packet_traits<double>::type;
using Block = Eigen::internal::PacketBlock<Packet, kLanes>;
inline constexpr bool kFourWide = Eigen::internal::unpacket_traits<Packet>::size == kLanes;
inline constexpr int kPacketSize = Eigen::internal::unpacket_traits<Packet>::size;
// op on a's and b's vectors, one vector (of kPacketSize lanes) at a time.
template <class Op>
EIGEN_ALWAYS_INLINE Lanes apply(Op op, const Lanes& a, const Lanes& b) {
    Lanes out;
    for (int i = 0; i < kLanes; i += kPacketSize)
        out.writePacket<Eigen::Aligned>(i, op(a.packet<Eigen::Aligned>(i), b.packet<Eigen::Aligned>(i)));
    return out;
}
}  // namespace lane_packets

// a * b + c lane by lane, rounded once where the machine has fused multiply-adds (FMA, part
// of x86-64-v3), else twice: half the instructions of a product and a sum, for the
// substitutions' and the right-hand side's long sums of products.
EIGEN_ALWAYS_INLINE Lanes multiplyAdd(const Lanes& a, const Lanes& b, const Lanes& c) {
    Lanes out;
    for (int i = 0; i < kLanes; i += lane_packets::kPacketSize)
        out.writePacket<Eigen::Aligned>(i,
                                        Eigen::internal::pmadd(a.packet<Eigen::Aligned>(i), b.packet<Eigen::Aligned>(i),
                                                               c.packet<Eigen::Aligned>(i)));
    return out;
}
EIGEN_ALWAYS_INLINE Lanes multiplyAdd(double a, const Lanes& b, const Lanes& c) {
    return multiplyAdd(Lanes::Constant(a), b, c);
}

// Per lane true or false (every bit of the lane set, or none), from a comparison: a selection
// by it is one vector blend (Eigen 3.4's Array select() goes number by number, by branches).
// Ordered comparisons: false where a number is NaN, as the operators are.
struct LaneMask {
    Lanes bits;
};
EIGEN_ALWAYS_INLINE LaneMask lanesLess(const Lanes& a, const Lanes& b) {
    return {lane_packets::apply([](const auto& x, const auto& y) { return Eigen::internal::pcmp_lt(x, y); }, a, b)};
}
EIGEN_ALWAYS_INLINE LaneMask lanesLess(const Lanes& a, double b) { return lanesLess(a, Lanes::Constant(b)); }
EIGEN_ALWAYS_INLINE LaneMask lanesGreater(const Lanes& a, double b) { return lanesLess(Lanes::Constant(b), a); }
EIGEN_ALWAYS_INLINE LaneMask lanesEqual(const Lanes& a, double b) {
    return {lane_packets::apply([](const auto& x, const auto& y) { return Eigen::internal::pcmp_eq(x, y); }, a,
                                Lanes::Constant(b))};
}
// Set where both are.
EIGEN_ALWAYS_INLINE LaneMask lanesAnd(const LaneMask& a, const LaneMask& b) {
    return {
        lane_packets::apply([](const auto& x, const auto& y) { return Eigen::internal::pand(x, y); }, a.bits, b.bits)};
}
// Whether every lane of the mask is set.
EIGEN_ALWAYS_INLINE bool allLanes(const LaneMask& mask) {
    for (int k = 0; k < kLanes; ++k)
        if (std::bit_cast<std::uint64_t>(mask.bits[k]) == 0) return false;
    return true;
}
// a where the mask is set, b elsewhere.
EIGEN_ALWAYS_INLINE Lanes select(const LaneMask& mask, const Lanes& a, const Lanes& b) {
    Lanes out;
    for (int i = 0; i < kLanes; i += lane_packets::kPacketSize)
        out.writePacket<Eigen::Aligned>(
            i, Eigen::internal::pselect(mask.bits.packet<Eigen::Aligned>(i), a.packet<Eigen::Aligned>(i),
                                        b.packet<Eigen::Aligned>(i)));
    return out;
}
EIGEN_ALWAYS_INLINE LaneVec3 select(const LaneMask& mask, const LaneVec3& a, const LaneVec3& b) {
    return {select(mask, a.x, b.x), select(mask, a.y, b.y), select(mask, a.z, b.z)};
}

// atan2(y, x) lane by lane, within two units in the last place of std::atan2, for the
// energy of thousands of hinges without a library call each. |y| and |x| are swapped into
// a = min / max in [0, 1]; above 0.66, atan a = pi/4 + atan((a - 1) / (a + 1)); on what is
// left, atan t = t + t z P(z) / Q(z), z = t^2, with Moshier's degree 4 / 5 rational
// approximation (Moshier 1989, "Methods and Programs for Mathematical Functions", the Cephes
// library's atan, whose coefficients these are). 0 where y and x are both 0, NaN where either
// is; a zero y counts as +0 (atan2(-0, x < 0) is pi here, -pi in std::atan2).
EIGEN_ALWAYS_INLINE Lanes atan2Lanes(const Lanes& y, const Lanes& x) {
    constexpr double kPi = 3.14159265358979323846, kMoreBits = 6.123233995736765886130e-17;  // pi/2 - double(pi/2)
    const Lanes ay = y.abs(), ax = x.abs();
    const LaneMask steep = lanesLess(ax, ay);  // false where either is NaN: then t is NaN
    const Lanes big = select(steep, ay, ax), small = select(steep, ax, ay);
    // a = small / big; t = a, or (a - 1) / (a + 1) = (small - big) / (small + big): one division.
    const LaneMask reduced = lanesLess(0.66 * big, small);
    const Lanes t =
        select(lanesEqual(big, 0.0), Lanes::Zero(),
               Lanes(select(reduced, Lanes(small - big), small) / select(reduced, Lanes(small + big), big)));
    const Lanes z = t * t;
    const Lanes p =
        (((-8.750608600031904122785e-1 * z - 1.615753718733365076637e1) * z - 7.500855792314704667340e1) * z -
         1.228866684490136173410e2) *
            z -
        6.485021904942025371773e1;
    const Lanes q =
        ((((z + 2.485846490142306297962e1) * z + 1.650270098316988542046e2) * z + 4.328810604912902668951e2) * z +
         4.853903996359136964868e2) *
            z +
        1.945506571482613964425e2;
    Lanes r = t + t * (z * p / q);
    r = select(reduced, kPi / 4 + (r + 0.5 * kMoreBits), r);
    r = select(steep, kPi / 2 - r + kMoreBits, r);  // atan(1/a) = pi/2 - atan a
    r = select(lanesLess(x, 0.0), kPi - r + 2.0 * kMoreBits, r);
    return select(lanesLess(y, 0.0), -r, r);
}

// Lane k of a as the four numbers (x, y, z, 0) at out + stride k, for the first count lanes.
EIGEN_ALWAYS_INLINE void storeLaneRows(const LaneVec3& a, int count, double* out, Index stride) {
    if constexpr (lane_packets::kFourWide) {
        if (count == kLanes) {
            lane_packets::Block rows;
            rows.packet[0] = Eigen::internal::pload<lane_packets::Packet>(a.x.data());
            rows.packet[1] = Eigen::internal::pload<lane_packets::Packet>(a.y.data());
            rows.packet[2] = Eigen::internal::pload<lane_packets::Packet>(a.z.data());
            rows.packet[3] = Eigen::internal::pset1<lane_packets::Packet>(0.0);
            Eigen::internal::ptranspose(rows);
            for (int k = 0; k < kLanes; ++k) Eigen::internal::pstoreu(out + stride * k, rows.packet[k]);
            return;
        }
    }
    for (int k = 0; k < count; ++k) {
        double* row = out + stride * k;
        row[0] = a.x[k];
        row[1] = a.y[k];
        row[2] = a.z[k];
        row[3] = 0.0;
    }
}
#pragma GCC diagnostic pop

// Numbers kept lane by lane (a block of kLanes constraints' state, ProjectiveTerm.h): lane k
// of the number at v + kLanes j is v[kLanes j + k], so that a block's number loads as one vector.
EIGEN_ALWAYS_INLINE Lanes loadLanes(const double* v) { return Eigen::Map<const Lanes>(v); }
EIGEN_ALWAYS_INLINE LaneVec3 loadLaneVec3(const double* v) {
    return {loadLanes(v), loadLanes(v + kLanes), loadLanes(v + 2 * kLanes)};
}
EIGEN_ALWAYS_INLINE void storeLanes(double* v, const Lanes& a) { Eigen::Map<Lanes>{v} = a; }
EIGEN_ALWAYS_INLINE void storeLaneVec3(double* v, const LaneVec3& a) {
    storeLanes(v, a.x);
    storeLanes(v + kLanes, a.y);
    storeLanes(v + 2 * kLanes, a.z);
}
// a in every lane.
EIGEN_ALWAYS_INLINE LaneVec3 broadcast(const Vec3& a) {
    return {Lanes::Constant(a.x()), Lanes::Constant(a.y()), Lanes::Constant(a.z())};
}
// Lane k's vector.
EIGEN_ALWAYS_INLINE Vec3 lane(const LaneVec3& a, int k) { return Vec3(a.x[k], a.y[k], a.z[k]); }

}  // namespace tinkerbox
