#include "core/collision/ParticleCollisions.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/collision/NarrowPhase.h"
#include "core/dynamics/World.h"

namespace tinkerbox {
namespace {

using Cell = std::array<std::int64_t, 3>;

// A particle whose position is not finite has this cell, which no finite one's neighbour is.
constexpr Cell kNoCell{std::numeric_limits<std::int64_t>::min(), 0, 0};

Cell cellOf(const Vec3& x, double size) {
    if (!x.allFinite()) return kNoCell;
    Cell c;
    // Far beyond any scene, coordinates share the outermost cells rather than overflow.
    for (int k = 0; k < 3; ++k) c[k] = static_cast<std::int64_t>(std::clamp(std::floor(x[k] / size), -1e15, 1e15));
    return c;
}

// Teschner et al. 2003, section 4.1: the cell's coordinates times three large primes, XORed.
std::size_t bucketOf(const Cell& c, std::size_t buckets) {
    const std::uint64_t h = (static_cast<std::uint64_t>(c[0]) * 73856093u) ^
                            (static_cast<std::uint64_t>(c[1]) * 19349663u) ^
                            (static_cast<std::uint64_t>(c[2]) * 83492791u);
    return static_cast<std::size_t>(h % buckets);
}

}  // namespace

double suggestedThickness(const World& world) {
    const Index n = world.particleCount();
    std::vector<std::pair<Index, Index>> pairs;
    world.couplings(pairs);
    std::vector<double> nearest(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
    for (const auto& [a, b] : pairs) {
        if (a >= n || b >= n || a == b) continue;
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

void ParticleCollisions::updateJoined(const World& world,
                                      const std::vector<std::pair<Index, Index>>& constraintPairs) {
    const Index n = world.particleCount();
    std::vector<std::pair<Index, Index>> pairs;
    world.couplings(pairs);
    pairs.insert(pairs.end(), constraintPairs.begin(), constraintPairs.end());
    // Velocity blocks below particleCount() are the particles; the others are bodies' and beads'.
    std::erase_if(pairs, [n](const std::pair<Index, Index>& p) { return p.first >= n || p.second >= n || p.first == p.second; });
    for (auto& [a, b] : pairs)
        if (b < a) std::swap(a, b);
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    joinedStart_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const auto& p : pairs) ++joinedStart_[static_cast<std::size_t>(p.first) + 1];
    for (std::size_t a = 0; a < static_cast<std::size_t>(n); ++a) joinedStart_[a + 1] += joinedStart_[a];
    joined_.resize(pairs.size());
    for (std::size_t k = 0; k < pairs.size(); ++k) joined_[k] = pairs[k].second;  // sorted by (a, b) already
    joinedRevision_ = world.elementsRevision();
    joinedParticles_ = n;
}

bool ParticleCollisions::areJoined(Index a, Index b) const {
    const auto first = joined_.begin() + joinedStart_[static_cast<std::size_t>(a)];
    const auto last = joined_.begin() + joinedStart_[static_cast<std::size_t>(a) + 1];
    return std::binary_search(first, last, b);
}

void ParticleCollisions::detect(const World& world, double thickness, double margin,
                                const std::vector<std::pair<Index, Index>>& constraintPairs, bool constraintsChanged,
                                std::vector<ContactManifold>& out) {
    candidates_ = 0;
    const Index n = world.particleCount();
    if (n < 2 || !(thickness > 0.0)) return;
    if (constraintsChanged || joinedRevision_ != world.elementsRevision() || joinedParticles_ != n)
        updateJoined(world, constraintPairs);

    // Centres closer than the reach have spheres closer than the margin.
    const double reach = thickness + margin;
    const std::size_t count = static_cast<std::size_t>(n), buckets = 2 * count;
    cell_.resize(count);
    bucketStart_.assign(buckets + 1, 0);
    for (std::size_t i = 0; i < count; ++i) {
        cell_[i] = cellOf(world.position(static_cast<Index>(i)), reach);
        ++bucketStart_[bucketOf(cell_[i], buckets) + 1];
    }
    for (std::size_t b = 0; b < buckets; ++b) bucketStart_[b + 1] += bucketStart_[b];
    // A counting sort, stable: each bucket's particles in index order.
    bucketParticles_.resize(count);
    {
        std::vector<Index> next(bucketStart_.begin(), bucketStart_.end() - 1);
        for (std::size_t i = 0; i < count; ++i) bucketParticles_[next[bucketOf(cell_[i], buckets)]++] = static_cast<Index>(i);
    }

    const double radius = 0.5 * thickness;
    ContactManifold manifold;
    for (Index a = 0; a < n; ++a) {
        const Cell& home = cell_[static_cast<std::size_t>(a)];
        if (home == kNoCell) continue;
        const Vec3 xa = world.position(a);
        partners_.clear();
        for (std::int64_t dx = -1; dx <= 1; ++dx)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    const Cell c{home[0] + dx, home[1] + dy, home[2] + dz};
                    const std::size_t bucket = bucketOf(c, buckets);
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
        std::sort(partners_.begin(), partners_.end(),
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
