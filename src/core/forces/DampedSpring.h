#pragma once
// Damped springs between anchors: particles and points of rigid bodies (Witkin, Particle
// System Dynamics, SIGGRAPH 2001 notes):
//   l = xa - xb, ldot = va - vb, fa = -[ks (|l| - r) + kd (ldot.l)/|l|] l/|l|, fb = -fa.
// All the springs of a model live in one DampedSpringSet so that a 128x128 cloth
// (about 100k springs) is one tight loop rather than 100k virtual calls.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/bodies/Anchor.h"
#include "core/forces/ElementPartition.h"
#include "core/forces/Force.h"
#include "core/forces/ProjectiveTerm.h"

namespace tinkerbox {

struct DampedSpring {
    Anchor a = Anchor(0);
    Anchor b = Anchor(0);
    double stiffness = 0.0;   // ks
    double damping = 0.0;     // kd
    double restLength = 0.0;  // r

    bool operator==(const DampedSpring&) const = default;
};

// Below this length the spring direction is undefined: the spring exerts nothing.
inline constexpr double kDegenerateSpringLength = 1e-12;

// Force on end a; end b receives the opposite. Spring: anything with the constants
// stiffness, damping and restLength (a DampedSpring, or the packed copies of a set).
template <class Spring>
Vec3 dampedSpringForce(const Spring& s, const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb) {
    const Vec3 l = xa - xb;
    const double L = l.norm();
    if (L < kDegenerateSpringLength) return Vec3::Zero();
    const Vec3 n = l / L;
    return -(s.stiffness * (L - s.restLength) + s.damping * (va - vb).dot(n)) * n;
}

// The block dfa/dxa (Kx) and dfa/dva (Kv). The other blocks follow by sign:
// dfa/dxb = -Kx, dfb/dxa = -Kx, dfb/dxb = Kx (same for v).
// Exact: Kx = -ks [n n^T + (1 - r/L)(I - n n^T)] - kd [n ldot^T P + (ldot.n) P] / L, P = I - n n^T,
//        Kv = -kd n n^T.
// Definite: the damping terms of Kx are dropped and (1 - r/L) is clamped at 0, which keeps
// the implicit matrix symmetric positive definite when the spring is compressed.
void dampedSpringJacobians(const DampedSpring& s, const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb,
                           JacobianForm form, Mat3& Kx, Mat3& Kv);

double dampedSpringEnergy(const DampedSpring& s, const Vec3& xa, const Vec3& xb);

// The springs between two particles run in a tight loop over packed copies; a spring
// with a body point at either end applies its force there, giving the body a torque. Its
// Jacobians follow the anchor points as the bodies move and turn: G^T K G, K the point
// Jacobian and G the map from an end's velocity blocks to its point's velocity (1 for a
// particle; [1, -[r]x] for a body, whose point moves with v + omega x r), so that the
// implicit step holds a stiff spring at a body point in rotation too. Left out are the
// terms from the turning of the lever r itself (r x F and omega x r as r turns), which
// vanish with F and omega.
//
// For the projective integrator each spring between two particles is one constraint
// (ProjectiveTerm.h; Liu et al. 2013, eq. 9) of weight ks + kd / h: elasticity pulls
// xa - xb towards r n, damping pulls the step's relative displacement d = (xa - xb) -
// (xa0 - xb0) towards its part across n0 (n0 the direction at the step's start), so at
// convergence the constraint's force is the spring's -ks (|l| - r) n - kd n0 n0^T (va - vb)
// with the velocities at the step's end: backward Euler's damping, along the spring only.
// Springs with a rigid-body end are left to the external forces.
class DampedSpringSet final : public Force, public ProjectiveTerm {
public:
    Index add(const DampedSpring& s);
    void set(Index k, const DampedSpring& s);
    void clear();
    Index size() const { return static_cast<Index>(springs_.size()); }
    const std::vector<DampedSpring>& springs() const { return springs_; }
    const DampedSpring& operator[](Index k) const { return springs_[k]; }

    void accumulate(const ModelState& state, VecX& f, TwoWayParallel* parallel) const override;
    double potentialEnergy(const ModelState& state) const override {
        return potentialEnergyHalf(state, 0) + potentialEnergyHalf(state, 1);
    }
    double potentialEnergyHalf(const ModelState& state, int half) const override;
    void appendCouplings(const ModelState& state, std::vector<std::pair<Index, Index>>& out) const override;
    void bindPattern(const ModelState& state, const BlockSparseMatrix& pattern) override;
    void addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const override;
    // Definite: each spring between particles takes its direction and length once for its
    // force and its Jacobian blocks.
    void accumulateWithJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                                 BlockSparseMatrix& J) const override;
    // The same with the Definite form, setting J rather than adding to it: J (with the bound
    // pattern) needs no zeroing first. Each block a particle pair reaches is set by the first
    // pair to reach it (0 + K: the same bits as zeroing and adding), the others are zeroed.
    // On a 128 x 128 cloth this spares a pass over the Jacobian's 8 MB.
    void accumulateSettingJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                                    BlockSparseMatrix& J) const;
    const ProjectiveTerm* projectiveTerm() const override { return this; }
    void accumulateOutsideProjectiveTerm(const ModelState& state, VecX& f) const override;

    std::uint64_t projectiveRevision() const override { return revision_; }
    void appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const override;
    // Per spring: the shares ks / w and (kd / h) / w of its weight w, its direction n0 and
    // xa0 - xb0, lane by lane in blocks of four (ProjectiveTerm.h).
    int projectionStateSize() const override { return 8; }
    void prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const override;
    void projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                        ProjectiveTarget* targets) const override;

private:
    // 32 bytes: the Jacobian's pass streams them (97,000 on a 128 x 128 cloth).
    struct ParticlePair {
        std::int32_t a, b;
        double stiffness, damping, restLength;
    };
    static_assert(sizeof(ParticlePair) == 32);
    // A particle pair's blocks aa, ab, ba, bb in the bound pattern (-1: not stored).
    using PairBlocks = std::array<std::int32_t, 4>;
    static bool joinsParticles(const DampedSpring& s) { return s.a.isParticle() && s.b.isParticle(); }
    // The velocity blocks of a spring's ends (a particle's, or a body's linear block).
    void endBlocks(const ModelState& state, const DampedSpring& s, Index& a, Index& b) const;
    // J (and dF/dx v) += spring k's blocks G^T K G for a spring with a body point at an end.
    void addAnchoredJacobians(const ModelState& state, const JacobianRequest& request, Index k,
                              BlockSparseMatrix& J) const;
    // The particle pairs' partition, made again on first use after the springs changed: the
    // force passes without a Jacobian need it as well.
    const ElementPartition& pairPartition(const ModelState& state) const;
    // Finds, in the order the pairs' pass runs, which pair first reaches each block of the
    // bound pattern (firstWrites_) and which blocks none reaches (unreached_).
    void planFirstWrites(const ModelState& state, const BlockSparseMatrix& pattern);
    template <bool Set>
    void pairsWithJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                            BlockSparseMatrix& J) const;

    std::vector<DampedSpring> springs_;
    std::vector<ParticlePair> particlePairs_;  // the particle-particle springs, packed
    // What the projections read in every iteration and the energy every frame, per block of
    // kLanes particle pairs lane by lane (a block's last lanes repeat its last pair): compact, as
    // they stream it (on a 128 x 128 cloth, the energy's pass fits the second-level caches).
    struct LaneBlock {
        std::array<std::int32_t, kLanes> a, b;
        std::array<double, kLanes> restLength, stiffness;
    };
    std::vector<LaneBlock> laneBlocks_;
    std::vector<Index> anchoredSprings_;  // the others
    std::vector<PairBlocks> blocks_;      // per particle pair
    bool patternBound_ = false;
    // Per particle pair, the blocks it is the first to write (kSetDiagonalA, kSetDiagonalB,
    // kSetOffDiagonal), and the ranges of blocks [first, last) that no pair writes.
    std::vector<std::uint8_t> firstWrites_;
    std::vector<std::pair<Index, Index>> unreached_;
    std::uint64_t plannedPattern_ = 0;                             // the pattern id they were planned for
    std::uint64_t revision_ = 0;                                   // counts the changes of the springs
    mutable ElementPartition pairPartition_;                       // of particlePairs_
    mutable std::uint64_t partitionRevision_ = ~std::uint64_t{0};  // revision_ it was made at
};

}  // namespace tinkerbox
