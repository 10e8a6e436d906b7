#pragma once
// Contact detection over a whole world (Baraff, Rigid Body Simulation II: Nonpenetration
// Constraints, SIGGRAPH 2001 notes, sections 8 and 9): a broad phase finds the pairs whose
// bounding boxes overlap, a narrow phase their contact manifolds. Rigid bodies meet rigid
// bodies, planes and particles; particles meet planes only through World::resolveContacts,
// and each other when given a thickness (ParticleCollisions.h).
// Bodies joined by a constraint do not collide with each other, nor does a fixed body with
// a fixed body or a plane, nor a nailed particle with a fixed body.
#include <memory>
#include <string>
#include <vector>

#include "core/collision/Contact.h"

namespace tinkerbox {

class CollidingModel;

struct DetectionStats {
    long candidatePairs = 0;  // broad-phase overlaps in the last detect(), particle pairs included
    long manifolds = 0;
    long points = 0;
    // The last detect() stopped at a bound (its maximum of contact points, or the broad phase's
    // SortAndSweep::kMaxPairs): its manifolds are not all of them, and no contact model may
    // take them for the whole.
    bool overflow = false;
};

class ContactDetector {
public:
    // The most contact points one detect() returns by default. A pair has at most four, but
    // bodies piled on one spot (a scene's mistake) make n^2 / 2 pairs: a thousand boxes two
    // million points, gigabytes of contact rows. The contact models' memory grows with the
    // points, so that bounding them bounds it.
    static constexpr long kMaxContactPoints = 1L << 18;

    explicit ContactDetector(long maxContactPoints = kMaxContactPoints);
    ~ContactDetector();
    ContactDetector(ContactDetector&&) noexcept;
    ContactDetector& operator=(ContactDetector&&) noexcept;

    // Every manifold of the world's colliders at its current state with points whose
    // separation is below margin (> 0: speculative contacts, found before they touch).
    // Keeps what it learns between calls (sorted bounds, separating axes), so that a world
    // that moves a little costs little.
    // With a particleThickness (metres), particles collide with each other as spheres of
    // that diameter; with 0, they do not.
    void detect(const CollidingModel& model, double margin, std::vector<ContactManifold>& out,
                double particleThickness = 0.0);
    const DetectionStats& stats() const { return stats_; }
    // What the last detect() stopped at, when stats().overflow, in words for the user.
    std::string overflowMessage() const;

private:
    struct Cache;
    std::unique_ptr<Cache> cache_;
    long maxContactPoints_;
    DetectionStats stats_;
};

}  // namespace tinkerbox
