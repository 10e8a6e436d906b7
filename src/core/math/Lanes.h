#pragma once
// Four numbers side by side, one per lane of an AVX2 vector (two SSE2 ones elsewhere), and
// 3-vectors made of them: the projective terms' local step (ProjectiveTerm.h) projects four
// constraints at once this way, so that they share each square root and division. Every
// operation acts lane by lane, so a lane's numbers are those of its constraint computed alone,
// whichever lane it lands in. Branches become selections (both sides computed, one kept per
// lane). The helpers are forced inline (EIGEN_STRONG_INLINE): a call would pass the vectors
// through memory.
#include "core/math/Types.h"

namespace tinkerbox {

using Lanes = Eigen::Array4d;
inline constexpr int kLanes = 4;

struct LaneVec3 {
    Lanes x, y, z;
};

EIGEN_STRONG_INLINE LaneVec3 operator+(const LaneVec3& a, const LaneVec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
EIGEN_STRONG_INLINE LaneVec3 operator-(const LaneVec3& a, const LaneVec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
EIGEN_STRONG_INLINE LaneVec3 operator*(const Lanes& s, const LaneVec3& a) { return {s * a.x, s * a.y, s * a.z}; }
EIGEN_STRONG_INLINE LaneVec3 operator*(const LaneVec3& a, const Lanes& s) { return {a.x * s, a.y * s, a.z * s}; }
EIGEN_STRONG_INLINE LaneVec3& operator+=(LaneVec3& a, const LaneVec3& b) { return a = a + b; }

EIGEN_STRONG_INLINE Lanes dot(const LaneVec3& a, const LaneVec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
EIGEN_STRONG_INLINE LaneVec3 cross(const LaneVec3& a, const LaneVec3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

template <class Mask>
EIGEN_STRONG_INLINE LaneVec3 select(const Mask& condition, const LaneVec3& a, const LaneVec3& b) {
    return {condition.select(a.x, b.x), condition.select(a.y, b.y), condition.select(a.z, b.z)};
}

// Lane k holds value(k).
template <class Value>
EIGEN_STRONG_INLINE Lanes lanes(Value value) {
    return Lanes(value(0), value(1), value(2), value(3));
}
// Lane k holds the 3 numbers at v + offset(k).
template <class Offset>
EIGEN_STRONG_INLINE LaneVec3 laneVectors(const double* v, Offset offset) {
    return {lanes([&](int k) { return v[offset(k)]; }), lanes([&](int k) { return v[offset(k) + 1]; }),
            lanes([&](int k) { return v[offset(k) + 2]; })};
}
// Numbers kept lane by lane (a block of kLanes constraints' state, ProjectiveTerm.h): lane k
// of the number at v + kLanes j is v[kLanes j + k], so that a block's number loads as one vector.
EIGEN_STRONG_INLINE Lanes loadLanes(const double* v) { return Eigen::Map<const Lanes>(v); }
EIGEN_STRONG_INLINE LaneVec3 loadLaneVec3(const double* v) {
    return {loadLanes(v), loadLanes(v + kLanes), loadLanes(v + 2 * kLanes)};
}
EIGEN_STRONG_INLINE void storeLanes(double* v, const Lanes& a) { Eigen::Map<Lanes>{v} = a; }
EIGEN_STRONG_INLINE void storeLaneVec3(double* v, const LaneVec3& a) {
    storeLanes(v, a.x);
    storeLanes(v + kLanes, a.y);
    storeLanes(v + 2 * kLanes, a.z);
}
// a in every lane.
EIGEN_STRONG_INLINE LaneVec3 broadcast(const Vec3& a) { return {Lanes::Constant(a.x()), Lanes::Constant(a.y()), Lanes::Constant(a.z())}; }
// Lane k's vector.
EIGEN_STRONG_INLINE Vec3 lane(const LaneVec3& a, int k) { return Vec3(a.x[k], a.y[k], a.z[k]); }

}  // namespace tinkerbox
