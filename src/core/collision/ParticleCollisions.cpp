#include "core/collision/ParticleCollisions.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/collision/NarrowPhase.h"
#include "core/collision/CollidingModel.h"

namespace tinkerbox {
namespace {

// A cell's three coordinates packed into one key, 21 bits each (offset by 2^20): cells of a
// centimetre span +-10 km. A particle beyond shares the outermost cells, which costs speed,
// never a pair.
constexpr std::int64_t kCellLimit = (std::int64_t{1} << 20) - 1;  // the largest |coordinate|
constexpr std::uint64_t kNoCell = ~std::uint64_t{0};              // a particle whose position is not finite

std::uint64_t packCell(std::int64_t x, std::int64_t y, std::int64_t z) {
    const auto field = [](std::int64_t c) { return static_cast<std::uint64_t>(c + kCellLimit + 1); };
    return (field(x) << 42) | (field(y) << 21) | field(z);
}

std::int64_t cellCoordinate(std::uint64_t key, int shift) {
    return static_cast<std::int64_t>((key >> shift) & ((std::uint64_t{1} << 21) - 1)) - (kCellLimit + 1);
}

std::uint64_t cellOf(const Vec3& x, double size) {
    if (!x.allFinite()) return kNoCell;
    const auto coordinate = [&](int k) {
        const double limit = static_cast<double>(kCellLimit);
        return static_cast<std::int64_t>(std::clamp(std::floor(x[k] / size), -limit, limit));
    };
    return packCell(coordinate(0), coordinate(1), coordinate(2));
}

// Knuth's multiplicative hash: the key times 2^64 over the golden ratio, its top bits.
std::size_t bucketOf(std::uint64_t key, int bits) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15u) >> (64 - bits));
}

// The pairs of two different particles that an element joins (couplings() lists velocity
// blocks: below particleCount() the particles, then the bodies' and beads').
std::vector<std::pair<Index, Index>> particleCouplings(const CollidingModel& model) {
    const Index n = model.state().particleCount();
    std::vector<std::pair<Index, Index>> pairs;
    model.couplings(pairs);
    std::erase_if(
        pairs, [n](const std::pair<Index, Index>& p) { return p.first >= n || p.second >= n || p.first == p.second; });
    return pairs;
}

}  // namespace

double suggestedThickness(const CollidingModel& model) {
    const ModelState& world = model.state();
    std::vector<double> nearest(static_cast<std::size_t>(world.particleCount()),
                                std::numeric_limits<double>::infinity());
    for (const auto& [a, b] : particleCouplings(model)) {
        const double distance = (world.position(a) - world.position(b)).norm();
        nearest[static_cast<std::size_t>(a)] = std::min(nearest[static_cast<std::size_t>(a)], distance);
        nearest[static_cast<std::size_t>(b)] = std::min(nearest[static_cast<std::size_t>(b)], distance);
    }
    std::erase_if(nearest, [](double d) { return !std::isfinite(d); });
    if (nearest.empty()) return 0.0;
    const auto middle = nearest.begin() + static_cast<std::ptrdiff_t>(nearest.size() / 2);
    std::nth_element(nearest.begin(), middle, nearest.end());
    return 0.8 * *middle;
}

void ParticleCollisions::updateJoined(const CollidingModel& model,
                                      const std::vector<std::pair<Index, Index>>& constraintPairs) {
    const Index n = model.state().particleCount();
    std::vector<std::pair<Index, Index>> pairs = particleCouplings(model);
    pairs.insert(pairs.end(), constraintPairs.begin(), constraintPairs.end());
    for (auto& [a, b] : pairs)
        if (b < a) std::swap(a, b);
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    joinedStart_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const auto& p : pairs) ++joinedStart_[static_cast<std::size_t>(p.first) + 1];
    for (std::size_t a = 0; a < static_cast<std::size_t>(n); ++a) joinedStart_[a + 1] += joinedStart_[a];
    joined_.resize(pairs.size());
    for (std::size_t k = 0; k < pairs.size(); ++k) joined_[k] = pairs[k].second;  // sorted by (a, b) already
    joinedRevision_ = model.elementsRevision();
    joinedParticles_ = n;
}

bool ParticleCollisions::areJoined(Index a, Index b) const {
    const auto first = joined_.begin() + joinedStart_[static_cast<std::size_t>(a)];
    const auto last = joined_.begin() + joinedStart_[static_cast<std::size_t>(a) + 1];
    return std::binary_search(first, last, b);
}

void ParticleCollisions::detect(const CollidingModel& model, double thickness, double margin,
                                const std::vector<std::pair<Index, Index>>& constraintPairs,
                                std::uint64_t constraintPairsRevision, std::vector<ContactManifold>& out) {
    const ModelState& world = model.state();
    candidates_ = 0;
    const Index n = world.particleCount();
    if (n < 2 || !(thickness > 0.0)) return;
    if (constraintPairsRevision_ != constraintPairsRevision || joinedRevision_ != model.elementsRevision() ||
        joinedParticles_ != n) {
        updateJoined(model, constraintPairs);
        constraintPairsRevision_ = constraintPairsRevision;
    }

    // Centres closer than the reach have spheres closer than the margin.
    const double reach = thickness + margin;
    const std::size_t count = static_cast<std::size_t>(n);
    const int bits = std::bit_width(2 * count - 1);  // a table of at least twice the particles
    const std::size_t buckets = std::size_t{1} << bits;
    // A counting sort, stable: each bucket's particles in index order. bucketStart_[b] counts
    // bucket b, then sums to its end, then (filled from the last particle down) to its start.
    cell_.resize(count);
    bucketStart_.assign(buckets + 1, 0);
    for (std::size_t i = 0; i < count; ++i) {
        cell_[i] = cellOf(world.position(static_cast<Index>(i)), reach);
        ++bucketStart_[bucketOf(cell_[i], bits)];
    }
    for (std::size_t b = 1; b <= buckets; ++b) bucketStart_[b] += bucketStart_[b - 1];
    bucketParticles_.resize(count);
    for (std::size_t i = count; i-- > 0;)
        bucketParticles_[static_cast<std::size_t>(--bucketStart_[bucketOf(cell_[i], bits)])] = static_cast<Index>(i);

    const double radius = 0.5 * thickness;
    ContactManifold manifold;
    for (Index a = 0; a < n; ++a) {
        const std::uint64_t home = cell_[static_cast<std::size_t>(a)];
        if (home == kNoCell) continue;
        const std::int64_t hx = cellCoordinate(home, 42), hy = cellCoordinate(home, 21), hz = cellCoordinate(home, 0);
        const Vec3 xa = world.position(a);
        partners_.clear();
        for (std::int64_t x = hx - 1; x <= hx + 1; ++x)
            for (std::int64_t y = hy - 1; y <= hy + 1; ++y)
                for (std::int64_t z = hz - 1; z <= hz + 1; ++z) {
                    if (std::max({std::abs(x), std::abs(y), std::abs(z)}) > kCellLimit) continue;  // no particle there
                    const std::uint64_t c = packCell(x, y, z);
                    const std::size_t bucket = bucketOf(c, bits);
                    for (Index k = bucketStart_[bucket]; k < bucketStart_[bucket + 1]; ++k) {
                        const Index b = bucketParticles_[static_cast<std::size_t>(k)];
                        // Each partner counted once: in its own cell, not in another hashed alike.
                        if (b <= a || cell_[static_cast<std::size_t>(b)] != c) continue;
                        const double squared = (world.position(b) - xa).squaredNorm();
                        if (squared < reach * reach) partners_.emplace_back(squared, b);
                    }
                }
        candidates_ += static_cast<long>(partners_.size());
        if (partners_.size() > kMaxPartners) {
            std::nth_element(partners_.begin(), partners_.begin() + kMaxPartners, partners_.end());
            partners_.resize(kMaxPartners);
        }
        std::sort(
            partners_.begin(), partners_.end(),
            [](const std::pair<double, Index>& p, const std::pair<double, Index>& q) { return p.second < q.second; });
        for (const auto& [squared, b] : partners_) {
            if ((world.isNailed(a) && world.isNailed(b)) || areJoined(a, b)) continue;
            manifold = {};
            if (!collideSpheres(xa, radius, world.position(b), radius, margin, manifold)) continue;
            manifold.a = {ColliderKind::Particle, a};
            manifold.b = {ColliderKind::Particle, b};
            out.push_back(manifold);
        }
    }
}

}  // namespace tinkerbox
