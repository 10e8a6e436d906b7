#include "core/forces/DampedSpring.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/state/ModelState.h"
#include "core/math/Lanes.h"

namespace tinkerbox {

namespace {
// A velocity block a spring end moves with, and how: its point's velocity is G times the
// block's velocity, and the block feels G^T F of a force F there.
struct EndBlock {
    Index block;
    Mat3 G;
    double sign;  // +1 at end a, -1 at end b (which feels -F)
};

// A particle's block (G = 1); a body's linear block (G = 1) and angular block
// (G = -[r]x: the point moves with omega x r) (Baraff, Rigid Body Simulation, SIGGRAPH
// 2001 notes, section 2.6).
void appendEndBlocks(const ModelState& state, const Anchor& a, double sign, std::vector<EndBlock>& out) {
    const Index block = state.velocityBlock(a.body);
    out.push_back({block, Mat3::Identity(), sign});
    if (a.isRigid())
        out.push_back({block + 1, -skew(state.anchorPosition(a) - state.rigidBodies().position(a.index())), sign});
}
}  // namespace

void dampedSpringJacobians(const DampedSpring& s, const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb,
                           JacobianForm form, Mat3& Kx, Mat3& Kv) {
    const Vec3 l = xa - xb;
    const double L = l.norm();
    if (L < kDegenerateSpringLength) {
        Kx.setZero();
        Kv.setZero();
        return;
    }
    const Vec3 n = l / L;
    const Mat3 nn = n * n.transpose();
    const Mat3 P = Mat3::Identity() - nn;
    Kv = -s.damping * nn;
    if (form == JacobianForm::Exact) {
        const Vec3 ldot = va - vb;
        Kx = -s.stiffness * (nn + (1.0 - s.restLength / L) * P) -
             (s.damping / L) * (n * (P * ldot).transpose() + ldot.dot(n) * P);
    } else {
        const double transverse = std::max(0.0, 1.0 - s.restLength / L);
        Kx = -s.stiffness * (nn + transverse * P);
    }
}

double dampedSpringEnergy(const DampedSpring& s, const Vec3& xa, const Vec3& xb) {
    const double stretch = (xa - xb).norm() - s.restLength;
    return 0.5 * s.stiffness * stretch * stretch;
}

Index DampedSpringSet::add(const DampedSpring& s) {
    springs_.push_back(s);
    const Index k = size() - 1;
    if (joinsParticles(s)) {
        particlePairs_.push_back({static_cast<std::int32_t>(s.a.index()), static_cast<std::int32_t>(s.b.index()),
                                  s.stiffness, s.damping, s.restLength});
        const std::size_t pair = particlePairs_.size() - 1;
        if (pair % kLanes == 0) laneBlocks_.emplace_back();
        LaneBlock& block = laneBlocks_.back();
        for (std::size_t lane = pair % kLanes; lane < kLanes; ++lane) {  // this lane and the repeats after it
            block.a[lane] = static_cast<std::int32_t>(s.a.index());
            block.b[lane] = static_cast<std::int32_t>(s.b.index());
            block.restLength[lane] = s.restLength;
            block.stiffness[lane] = s.stiffness;
        }
    } else {
        anchoredSprings_.push_back(k);
    }
    patternBound_ = false;  // the Jacobian pattern must be rebound
    ++revision_;
    return k;
}

void DampedSpringSet::set(Index k, const DampedSpring& s) {
    std::vector<DampedSpring> springs = std::move(springs_);
    springs[k] = s;
    clear();
    for (const DampedSpring& spring : springs) add(spring);
}

void DampedSpringSet::clear() {
    springs_.clear();
    particlePairs_.clear();
    laneBlocks_.clear();
    anchoredSprings_.clear();
    blocks_.clear();
    patternBound_ = false;
    ++revision_;
}

void DampedSpringSet::endBlocks(const ModelState& state, const DampedSpring& s, Index& a, Index& b) const {
    a = state.velocityBlock(s.a.body);
    b = state.velocityBlock(s.b.body);
}

void DampedSpringSet::accumulate(const ModelState& state, VecX& f, TwoWayParallel* parallel) const {
    const VecX& x = state.positions();
    const VecX& v = state.velocities();
    const auto add = [&](const ParticlePair& p, const Vec3& fa) {
        block3(f, p.a) += fa;
        block3(f, p.b) -= fa;
    };
    pairPartition(state).forEachPart(parallel, [&](const std::vector<Index>& pairs) {
        // Four springs at once (Lanes.h), dampedSpringForce's operations lane by lane: each
        // lane's force is its spring's to the bit, and they are added in the pairs' order.
        const auto count = static_cast<Index>(pairs.size());
        Index k = 0;
        for (; k + kLanes <= count; k += kLanes) {
            std::array<const ParticlePair*, kLanes> p;
            std::array<std::int32_t, kLanes> a, b;
            for (std::size_t j = 0; j < kLanes; ++j) {
                p[j] = &particlePairs_[static_cast<std::size_t>(pairs[static_cast<std::size_t>(k) + j])];
                a[j] = static_cast<std::int32_t>(p[j]->a);
                b[j] = static_cast<std::int32_t>(p[j]->b);
            }
            const LaneVec3 l = laneVectors(x, a) - laneVectors(x, b);
            const Lanes L = dot(l, l).sqrt();
            const LaneVec3 n{l.x / L, l.y / L, l.z / L};
            const Lanes stiffness = lanes([&](int j) { return p[static_cast<std::size_t>(j)]->stiffness; });
            const Lanes damping = lanes([&](int j) { return p[static_cast<std::size_t>(j)]->damping; });
            const Lanes rest = lanes([&](int j) { return p[static_cast<std::size_t>(j)]->restLength; });
            const Lanes magnitude = -(stiffness * (L - rest) + damping * dot(laneVectors(v, a) - laneVectors(v, b), n));
            for (std::size_t j = 0; j < kLanes; ++j) {
                const auto lane = static_cast<Index>(j);
                add(*p[j],
                    L[lane] < kDegenerateSpringLength
                        ? Vec3::Zero()
                        : Vec3(magnitude[lane] * n.x[lane], magnitude[lane] * n.y[lane], magnitude[lane] * n.z[lane]));
            }
        }
        for (; k < count; ++k) {
            const ParticlePair& p = particlePairs_[static_cast<std::size_t>(pairs[static_cast<std::size_t>(k)])];
            add(p, dampedSpringForce(p, block3(x, p.a), block3(x, p.b), block3(v, p.a), block3(v, p.b)));
        }
    });
    accumulateOutsideProjectiveTerm(state, f);
}

const ElementPartition& DampedSpringSet::pairPartition(const ModelState& state) const {
    if (partitionRevision_ != revision_) {
        pairPartition_.assign<2>(static_cast<Index>(particlePairs_.size()), state.particleCount(), [&](Index p) {
            return std::array<Index, 2>{particlePairs_[p].a, particlePairs_[p].b};
        });
        partitionRevision_ = revision_;
    }
    return pairPartition_;
}

void DampedSpringSet::accumulateOutsideProjectiveTerm(const ModelState& state, VecX& f) const {
    for (const Index k : anchoredSprings_) {
        const DampedSpring& s = springs_[k];
        const Vec3 fa = dampedSpringForce(s, state.anchorPosition(s.a), state.anchorPosition(s.b),
                                          state.anchorVelocity(s.a), state.anchorVelocity(s.b));
        state.applyForce(s.a, fa, f);
        state.applyForce(s.b, -fa, f);
    }
}

void DampedSpringSet::appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const {
    for (const ParticlePair& p : particlePairs_) {
        ProjectiveStencil c;
        c.particles[0] = p.a;
        c.particles[1] = p.b;
        c.particleCount = 2;
        c.rows = 1;
        c.coefficients[0][0] = 1.0;
        c.coefficients[0][1] = -1.0;
        c.weight = p.stiffness + p.damping / h;
        out.push_back(c);
    }
}

namespace {
// What prepareProjections keeps per block of kLanes springs, lane by lane (Lanes.h): the
// shares of the weight (elastic, damping), the direction n0 and l0 = xa0 - xb0.
enum SpringState {
    kSpringElasticShare = 0,
    kSpringDampingShare = kLanes,
    kSpringStartDirection = 2 * kLanes,
    kSpringStartVector = 5 * kLanes
};
}  // namespace

void DampedSpringSet::prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const {
    for (Index block = first; block < last; block += kLanes, state += kLanes * projectionStateSize()) {
        // Four springs at once, as in projectTargets; past the last one, lanes repeat it.
        std::array<const ParticlePair*, kLanes> p;
        for (int k = 0; k < kLanes; ++k)
            p[k] = &particlePairs_[static_cast<std::size_t>(std::min<Index>(block + k, last - 1))];
        const Lanes stiffness = lanes([&](int k) { return p[k]->stiffness; });
        const Lanes damping = lanes([&](int k) { return p[k]->damping / h; });
        const Lanes weight = stiffness + damping;
        // 1 where the spring is a constraint; 0 for no net force (one particle at both ends) or
        // no constraint at all: nothing to share, the target is l0.
        const Lanes joins = lanes([&](int k) { return p[k]->a == p[k]->b ? 0.0 : 1.0; });
        const Lanes constrained = (weight > 0.0).select(joins, 0.0);
        // The direction at the start; none for coincident ends, where the damping holds all of
        // the displacement (projectiveDampingDirection).
        const LaneVec3 l0 =
            laneVectors(x0, [&](int k) { return 3 * p[k]->a; }) - laneVectors(x0, [&](int k) { return 3 * p[k]->b; });
        const Lanes squared = dot(l0, l0);
        storeLanes(state + kSpringElasticShare, (constrained > 0.0).select(stiffness / weight, 0.0));
        storeLanes(state + kSpringDampingShare, (constrained > 0.0).select(damping / weight, 0.0));
        storeLaneVec3(state + kSpringStartDirection, (squared > 1e-24).select(constrained / squared.sqrt(), 0.0) * l0);
        storeLaneVec3(state + kSpringStartVector, l0);
    }
}

void DampedSpringSet::projectTargets(const VecX& x, const VecX&, Index first, Index last, const double* state,
                                     ProjectiveTarget* targets) const {
    for (Index block = first; block < last; block += kLanes, state += kLanes * projectionStateSize()) {
        // Lane k projects spring block + k (first is a multiple of kLanes); past the last
        // one, lanes project another of the block (and are dropped).
        const LaneBlock& springs = laneBlocks_[static_cast<std::size_t>(block / kLanes)];
        const LaneVec3 l = laneVectors(x, springs.a) - laneVectors(x, springs.b),
                       l0 = loadLaneVec3(state + kSpringStartVector);
        const Lanes L = dot(l, l).sqrt();
        // Elastic target r n; with no direction (coincident ends) the spring pulls nowhere.
        const Lanes restLength = loadLanes(springs.restLength.data());
        const LaneVec3 elastic = select(lanesLess(L, kDegenerateSpringLength), l, (restLength / L) * l);
        // Damping target: l0 plus the displacement's part across n0 (projectiveDampingDisplacement).
        const LaneVec3 d = l - l0, n0 = loadLaneVec3(state + kSpringStartDirection);
        const LaneVec3 target = loadLanes(state + kSpringElasticShare) * (elastic - l0) +
                                loadLanes(state + kSpringDampingShare) * (d - dot(d, n0) * n0);
        storeTargets(target, static_cast<int>(std::min<Index>(kLanes, last - block)), targets + (block - first));
    }
}

double DampedSpringSet::potentialEnergyHalf(const ModelState& state, int half) const {
    const VecX& x = state.positions();
    double u = 0.0;
    // The particle pairs' lengths four at a time (the divergence guard reads the energy every
    // frame), summed pair by pair in order: (|xa - xb| - r)^2 k / 2. Half 0: the first half
    // of the pairs; half 1: the rest, then the springs with a body at an end.
    const auto [begin, pairs] = laneHalf(static_cast<Index>(particlePairs_.size()), half);
    for (Index block = begin; block < pairs; block += kLanes) {
        const LaneBlock& springs = laneBlocks_[static_cast<std::size_t>(block / kLanes)];
        const LaneVec3 l = laneVectors(x, springs.a) - laneVectors(x, springs.b);
        const Lanes stretch = dot(l, l).sqrt() - loadLanes(springs.restLength.data());
        const Lanes energy = 0.5 * loadLanes(springs.stiffness.data()) * stretch * stretch;
        for (int k = 0; k < kLanes && block + k < pairs; ++k) u += energy[k];
    }
    if (half == 0) return u;
    for (const Index k : anchoredSprings_) {
        const DampedSpring& s = springs_[k];
        u += dampedSpringEnergy(s, state.anchorPosition(s.a), state.anchorPosition(s.b));
    }
    return u;
}

void DampedSpringSet::appendCouplings(const ModelState& state, std::vector<std::pair<Index, Index>>& out) const {
    std::vector<EndBlock> ends;
    for (const DampedSpring& s : springs_) {
        if (s.a.body == s.b.body) continue;  // no net force: nothing to couple
        ends.clear();
        appendEndBlocks(state, s.a, 1.0, ends);
        appendEndBlocks(state, s.b, -1.0, ends);
        for (std::size_t p = 0; p < ends.size(); ++p)
            for (std::size_t q = p + 1; q < ends.size(); ++q) out.emplace_back(ends[p].block, ends[q].block);
    }
}

void DampedSpringSet::bindPattern(const ModelState& state, const BlockSparseMatrix& pattern) {
    blocks_.clear();
    for (const DampedSpring& s : springs_) {
        if (!joinsParticles(s)) continue;
        Index a, b;
        endBlocks(state, s, a, b);
        const auto find = [&](Index i, Index j) { return static_cast<std::int32_t>(pattern.find(i, j)); };
        blocks_.push_back({find(a, a), a == b ? -1 : find(a, b), a == b ? -1 : find(b, a), find(b, b)});
    }
    patternBound_ = true;
    planFirstWrites(state, pattern);
}

namespace {
// The blocks a particle pair may be the first to write (DampedSpringSet::firstWrites_).
constexpr std::uint8_t kSetDiagonalA = 1, kSetDiagonalB = 2, kSetOffDiagonal = 4;
}  // namespace

void DampedSpringSet::planFirstWrites(const ModelState& state, const BlockSparseMatrix& pattern) {
    // The pass runs the partition's first part, its second and then its band; the two parts
    // run at once but share no particle, so no block, and their first writes are the same in
    // either order. Within a pair: aa, bb, then the off-diagonal block (addDefinitePairJacobian).
    std::vector<char> written(static_cast<std::size_t>(pattern.storedBlocks()), 0);
    firstWrites_.assign(particlePairs_.size(), 0);
    const ElementPartition& partition = pairPartition(state);
    for (const std::vector<Index>* part : {&partition.first(), &partition.second(), &partition.band()})
        for (const Index k : *part) {
            const auto& [aa, ab, ba, bb] = blocks_[k];
            std::uint8_t& first = firstWrites_[k];
            const auto claim = [&](Index block, std::uint8_t bit) {
                if (block < 0 || written[block]) return;
                written[block] = 1;
                first |= bit;
            };
            claim(aa, kSetDiagonalA);
            claim(bb, kSetDiagonalB);
            claim(ab, kSetOffDiagonal);
            claim(ba, kSetOffDiagonal);
        }
    unreached_.clear();
    for (Index k = 0; k < pattern.storedBlocks(); ++k) {
        if (written[k]) continue;
        if (!unreached_.empty() && unreached_.back().second == k) ++unreached_.back().second;
        else unreached_.emplace_back(k, k + 1);
    }
    plannedPattern_ = pattern.patternId();
}

namespace {
// How many particle pairs ahead accumulateWithJacobians asks for the blocks it will add to.
constexpr Index kPrefetchAhead = 16;

// J += the definite K = cx Kx + cv Kv of a spring between particles at its blocks (aa, bb: +K;
// ab or ba, whichever is stored: -K), and dF/dx (va - vb) at its ends, from its direction n and
// length L: in closed form, with t = max(0, 1 - r/L), Kx = -ks ((1 - t) n n^T + t I) and
// Kv = -kd n n^T (dampedSpringJacobians). K is made in a plain array and added entry by entry
// (an Eigen 3x3 temporary came back from memory through loads that stalled on its stores).
// The blocks in set (kSetDiagonalA, ...) are taken as zero before.
template <class Spring, class Blocks>
void addDefinitePairJacobian(const Spring& s, const Blocks& blocks, std::uint8_t set, Index a, Index b, const Vec3& n,
                             double L, const Vec3& dv, const JacobianRequest& request, BlockSparseMatrix& J) {
    const double t = std::max(0.0, 1.0 - s.restLength / L);
    const double along = -(request.cx * s.stiffness * (1.0 - t) + request.cv * s.damping);
    const double diagonal = request.cx * s.stiffness * t;
    double K[9];  // column by column, as Eigen stores a block
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) K[3 * c + r] = (along * n[r]) * n[c] - (r == c ? diagonal : 0.0);
    const auto& [aa, ab, ba, bb] = blocks;
    for (const auto& [target, bit] : {std::pair{aa, kSetDiagonalA}, std::pair{bb, kSetDiagonalB}}) {
        double* block = J.value(target).data();
        if (set & bit)
            for (int e = 0; e < 9; ++e) block[e] = 0.0 + K[e];
        else
            for (int e = 0; e < 9; ++e) block[e] += K[e];
    }
    for (const Index off : {ab, ba})
        if (off >= 0) {
            double* block = J.value(off).data();
            if (set & kSetOffDiagonal)
                for (int e = 0; e < 9; ++e) block[e] = 0.0 - K[e];
            else
                for (int e = 0; e < 9; ++e) block[e] -= K[e];
        }
    if (request.dFdxTimesVelocity) {
        const Vec3 product = -s.stiffness * ((1.0 - t) * n.dot(dv) * n + t * dv);
        block3(*request.dFdxTimesVelocity, a) += product;
        block3(*request.dFdxTimesVelocity, b) -= product;
    }
}
}  // namespace

void DampedSpringSet::addAnchoredJacobians(const ModelState& state, const JacobianRequest& request, Index k,
                                           BlockSparseMatrix& J) const {
    const DampedSpring& s = springs_[k];
    if (s.a.body == s.b.body) return;  // both ends on one body: no net force
    const Vec3 xa = state.anchorPosition(s.a), xb = state.anchorPosition(s.b);
    const Vec3 va = state.anchorVelocity(s.a), vb = state.anchorVelocity(s.b);
    Mat3 Kx, Kv;
    dampedSpringJacobians(s, xa, xb, va, vb, request.form, Kx, Kv);
    const Mat3 K = request.cx * Kx + request.cv * Kv;
    std::vector<EndBlock> ends;
    appendEndBlocks(state, s.a, 1.0, ends);
    appendEndBlocks(state, s.b, -1.0, ends);
    // Block (i, j) of G^T K G; with Upper storage, (j, i) is the transpose of (i, j).
    for (const EndBlock& p : ends)
        for (const EndBlock& q : ends)
            if (J.storage() == BlockSparseMatrix::Storage::Full || p.block <= q.block)
                J.at(p.block, q.block) += (p.sign * q.sign) * (p.G.transpose() * K * q.G);
    if (request.dFdxTimesVelocity) {
        const Vec3 product = Kx * (va - vb);
        for (const EndBlock& p : ends)
            block3(*request.dFdxTimesVelocity, p.block) += p.sign * (p.G.transpose() * product);
    }
}

void DampedSpringSet::addJacobians(const ModelState& state, const JacobianRequest& request,
                                   BlockSparseMatrix& J) const {
    if (!patternBound_) throw std::logic_error("DampedSpringSet: Jacobian pattern not bound");
    const VecX& x = state.positions();
    const VecX& v = state.velocities();
    std::size_t pair = 0;  // the particle pairs come in the springs' order
    for (std::size_t k = 0; k < springs_.size(); ++k) {
        const DampedSpring& s = springs_[k];
        if (!joinsParticles(s)) {
            addAnchoredJacobians(state, request, static_cast<Index>(k), J);
            continue;
        }
        const PairBlocks& blocks = blocks_[pair++];
        const auto& [aa, ab, ba, bb] = blocks;
        if (ab < 0 && ba < 0 && aa == bb) continue;  // both ends on one particle: no net force
        const Index a = s.a.index(), b = s.b.index();
        const Vec3 xa = block3(x, a), xb = block3(x, b), va = block3(v, a), vb = block3(v, b);
        if (request.form == JacobianForm::Definite) {
            const Vec3 l = xa - xb;
            const double L = l.norm();
            if (L < kDegenerateSpringLength) continue;
            addDefinitePairJacobian(s, blocks, 0, a, b, l / L, L, va - vb, request, J);
            continue;
        }
        Mat3 Kx, Kv;
        dampedSpringJacobians(s, xa, xb, va, vb, request.form, Kx, Kv);
        const Mat3 K = request.cx * Kx + request.cv * Kv;
        J.value(aa) += K;
        J.value(bb) += K;
        for (const Index off : {ab, ba})
            if (off >= 0) J.value(off) -= K;
        if (request.dFdxTimesVelocity) {
            const Vec3 product = Kx * (va - vb);
            block3(*request.dFdxTimesVelocity, a) += product;
            block3(*request.dFdxTimesVelocity, b) -= product;
        }
    }
}

void DampedSpringSet::accumulateWithJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                                              BlockSparseMatrix& J) const {
    if (request.form != JacobianForm::Definite) {
        Force::accumulateWithJacobians(state, request, f, J);
        return;
    }
    if (!patternBound_) throw std::logic_error("DampedSpringSet: Jacobian pattern not bound");
    pairsWithJacobians<false>(state, request, f, J);
}

void DampedSpringSet::accumulateSettingJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                                                 BlockSparseMatrix& J) const {
    if (request.form != JacobianForm::Definite || !patternBound_ || plannedPattern_ != J.patternId())
        throw std::logic_error("DampedSpringSet: setting the Jacobian needs the Definite form and the bound pattern");
    // The unreached blocks zeroed first, in two halves at once when they are many.
    const auto zero = [&](Index from, Index to) {  // the unreached blocks from-th to to-th (exclusive)
        Index at = 0;
        for (const auto& [first, last] : unreached_) {
            const Index lo = first + std::max<Index>(0, from - at), hi = first + std::min(last - first, to - at);
            if (lo < hi) std::fill(&J.value(lo), &J.value(lo) + (hi - lo), Mat3::Zero());
            at += last - first;
        }
    };
    Index count = 0;
    for (const auto& [first, last] : unreached_) count += last - first;
    if (request.parallel && count >= static_cast<Index>(BlockSparseMatrix::kParallelZeroBlocks))
        request.parallel->run([&] { zero(0, count / 2); }, [&] { zero(count / 2, count); });
    else zero(0, count);
    pairsWithJacobians<true>(state, request, f, J);
}

template <bool Set>
void DampedSpringSet::pairsWithJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                                         BlockSparseMatrix& J) const {
    // The particle pairs (in the partition's order), then the others.
    const VecX& x = state.positions();
    const VecX& v = state.velocities();
    const auto pairs = static_cast<Index>(particlePairs_.size());
    pairPartition(state).forEach(request.parallel, [&](Index k) {
        // The diagonal block of the later end of the pair kPrefetchAhead on, asked for now: on
        // a cloth of 128 x 128 the matrix outgrows the caches, and that block (up to two rows of
        // particles on) missed them; the pair's other blocks are in the rows the loop is at.
        if (k + kPrefetchAhead < pairs) {
            const ParticlePair& ahead = particlePairs_[k + kPrefetchAhead];
            const PairBlocks& blocks = blocks_[k + kPrefetchAhead];
            const double* entries = J.value(ahead.a < ahead.b ? blocks[3] : blocks[0]).data();
            __builtin_prefetch(entries, 1);
            __builtin_prefetch(entries + 8, 1);
        }
        const ParticlePair& p = particlePairs_[k];
        const Vec3 xa = block3(x, p.a), xb = block3(x, p.b), va = block3(v, p.a), vb = block3(v, p.b);
        const Vec3 l = xa - xb;
        const double L = l.norm();
        const PairBlocks& blocks = blocks_[k];
        const std::uint8_t set = Set ? firstWrites_[k] : 0;
        if (L < kDegenerateSpringLength) {  // no direction: no force, no Jacobian
            const auto& [aa, ab, ba, bb] = blocks;
            if (set & kSetDiagonalA) J.value(aa).setZero();
            if (set & kSetDiagonalB) J.value(bb).setZero();
            for (const Index off : {ab, ba})
                if (off >= 0 && (set & kSetOffDiagonal)) J.value(off).setZero();
            return;
        }
        const Vec3 n = l / L;
        const Vec3 fa = -(p.stiffness * (L - p.restLength) + p.damping * (va - vb).dot(n)) * n;  // dampedSpringForce
        block3(f, p.a) += fa;
        block3(f, p.b) -= fa;
        addDefinitePairJacobian(p, blocks, set, p.a, p.b, n, L, va - vb, request, J);
    });
    accumulateOutsideProjectiveTerm(state, f);
    for (const Index k : anchoredSprings_) addAnchoredJacobians(state, request, k, J);
}

}  // namespace tinkerbox
