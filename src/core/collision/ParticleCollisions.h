#pragma once
// Particles colliding with each other: a cloth folding onto itself, hair strands crossing.
// Each particle is a sphere of diameter `thickness`; two touch when their centres are closer
// than it. Particles an element joins (a spring, a cloth triangle or hinge, a hair joint:
// CollidingModel::couplings) or a constraint joins never collide with each other: their rest shape
// decides how close they are. Neither do two nailed particles.
// The candidates come from a uniform grid of cells of side thickness + margin, hashed into
// a table of two to four times as many entries as particles (Teschner et al., Optimized Spatial
// Hashing for Collision Detection of Deformable Objects, VMV 2003): a particle's partners
// lie in its own cell or in the 26 around it, found in O(n) wherever the particles are, as
// long as each cell holds a few.
// A point against a point stops a particle only while the gaps between its neighbours are
// narrower than the thickness: a thickness of about the elements' length keeps a cloth's
// layers apart.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/collision/Contact.h"

namespace tinkerbox {

class CollidingModel;

// A thickness for a world's self collision: 0.8 times the median, over the particles an
// element joins to another, of the distance to the nearest such partner (a cloth's spacing,
// a strand's segment), so that the particles' spheres leave gaps narrower than themselves
// and their neighbours out of reach; 0 when no element joins two particles.
double suggestedThickness(const CollidingModel& model);

class ParticleCollisions {
public:
    // A particle meets at most this many partners of higher index, the nearest: equal
    // spheres touch at most 12 at once, and particles piled on one spot (a scene's mistake)
    // must not make millions of contacts.
    static constexpr std::size_t kMaxPartners = 16;

    // Appends to out a one-point manifold (normal from the lower index a to the higher b)
    // for every pair of particles whose spheres are closer than margin, in order of (a, b).
    // `constraintPairs` are the particle pairs the world's constraints join (a < b), read
    // again when constraintPairsRevision (the caller's count of their changes) moves; the
    // elements' pairs are read again when the world's elementsRevision() moves.
    void detect(const CollidingModel& model, double thickness, double margin,
                const std::vector<std::pair<Index, Index>>& constraintPairs, std::uint64_t constraintPairsRevision,
                std::vector<ContactManifold>& out);
    // The pairs of the last detect() whose centres were closer than thickness + margin,
    // before the partner cap and the joined and nailed pairs were left out.
    long candidatePairs() const { return candidates_; }

private:
    void updateJoined(const CollidingModel& model, const std::vector<std::pair<Index, Index>>& constraintPairs);
    bool areJoined(Index a, Index b) const;  // a < b

    std::uint64_t joinedRevision_ = ~std::uint64_t{0}, constraintPairsRevision_ = ~std::uint64_t{0};
    Index joinedParticles_ = -1;
    // Per particle a, the particles b > a joined to it, sorted: joined_[joinedStart_[a] ..
    // joinedStart_[a + 1] - 1].
    std::vector<Index> joinedStart_, joined_;
    // The grid: each particle's cell, and the particles of each hash bucket in index order.
    std::vector<std::uint64_t> cell_;  // packed coordinates
    std::vector<Index> bucketStart_, bucketParticles_;
    std::vector<std::pair<double, Index>> partners_;  // squared distance, particle
    long candidates_ = 0;
};

}  // namespace tinkerbox
