#pragma once
// Picking with a ray: what lies under the cursor, in 2D (a ray along -z) and in 3D alike.
// The pick radius grows with distance along the ray, so that a perspective camera picks
// by pixels.
#include <optional>

#include "core/pipeline/Simulation.h"
#include "scene/Scene.h"

namespace tinkerbox {

struct Ray {
    Vec3 origin = Vec3::Zero();
    Vec3 direction = -Vec3::UnitZ();  // unit length
};

struct PickTolerance {
    double radius = 0.05;      // world units at the ray's origin
    double perDistance = 0.0;  // growth per unit of distance along the ray (perspective)
    double at(double distance) const { return radius + perDistance * std::max(0.0, distance); }
};

// Distance from point p to the ray, and how far along the ray its foot lies.
double distanceToRay(const Ray& ray, const Vec3& p, double* along = nullptr);
// Where the ray meets the plane through point with normal, if it does (not parallel).
std::optional<Vec3> intersectPlane(const Ray& ray, const Vec3& point, const Vec3& normal);

// The particle nearest the ray within the tolerance (the nearest to the camera among ties).
std::optional<Index> pickParticle(const Simulation& simulation, const Ray& ray, const PickTolerance& tolerance);
// The spring (index into the simulation's springs) whose segment passes nearest the ray.
std::optional<Index> pickSpring(const Simulation& simulation, const Ray& ray, const PickTolerance& tolerance);
// The rod constraint (index into the constraint list) likewise.
std::optional<Index> pickRod(const Simulation& simulation, const Ray& ray, const PickTolerance& tolerance);
// The wire whose circle passes nearest the point on its plane where the ray meets it.
std::optional<Index> pickWire(const std::vector<Wire>& wires, const Ray& ray, const PickTolerance& tolerance);

// The rigid body the ray enters first, the point of its surface where it does and the
// surface's outward unit normal there (the entering face's, on a box or a convex hull).
struct BodyHit {
    Index body;
    Vec3 point;
    Vec3 normal;
};
std::optional<BodyHit> pickBody(const Simulation& simulation, const Ray& ray);
// Where the ray enters that body, whatever lies in front of it.
std::optional<BodyHit> rayHitsBody(const Simulation& simulation, const Ray& ray, Index body);

// A particle taken for a point of a cloth or a strand that the ray passes, and how far
// along the ray that point is.
struct ParticleHit {
    Index particle;
    double along;
};
// Where the ray first meets a triangle of one of the scene's cloths (the triangles their
// energies act on): the corner of that triangle nearest the point. A cloth is then grabbed
// wherever it is seen, not only at its particles.
std::optional<ParticleHit> pickCloth(const Scene& scene, const Simulation& simulation, const Ray& ray);
// The hair strand piece (between two of a strand's consecutive particles) passing nearest
// the ray within the tolerance: the end of it nearer the ray, and how far along the ray the
// piece's nearest point is. A strand is then grabbed wherever it is seen.
std::optional<ParticleHit> pickStrand(const Scene& scene, const Simulation& simulation, const Ray& ray,
                                      const PickTolerance& tolerance);
// The particle under the pointer: the one nearest the ray within the tolerance
// (pickParticle), else, of a cloth's surface where the ray meets it (pickCloth) and of a
// hair strand passing within the tolerance (pickStrand), the one the ray reaches first,
// unless a body comes before it. What the tools and compare mode's pull take, and what is
// hovered.
std::optional<Index> pickParticleClothOrHair(const Scene& scene, const Simulation& simulation, const Ray& ray,
                                             const PickTolerance& tolerance);

// Shortest distance between the ray and the segment ab, and the distance along the ray.
double segmentDistanceToRay(const Ray& ray, const Vec3& a, const Vec3& b, double* along = nullptr);

}  // namespace tinkerbox
