#pragma once
// A scene: what a scene file holds, and what the editor edits. The core types of
// the model (particles, springs, planes, settings) are reused as they are.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/constraints/ConstraintSpec.h"
#include "core/forces/Cloth.h"
#include "core/forces/DampedSpring.h"
#include "core/forces/ForceFieldKind.h"
#include "core/bodies/ParametricBeads.h"
#include "core/bodies/RigidBodySpec.h"
#include "core/dynamics/World.h"
#include "core/collision/Plane.h"
#include "core/pipeline/Simulation.h"

namespace tinkerbox {

// A circular wire drawn in the scene, on which beads can be threaded (each bead is a
// WireSpec constraint with the wire's geometry). A wire needs no bead to exist.
struct Wire {
    Vec3 center = Vec3::Zero();
    double radius = 1.0;
    Vec3 normal = Vec3::UnitZ();  // unit length

    bool operator==(const Wire&) const = default;
};

// The particle at a place of a cloth's grid or a hair's strands whose particles are laid out
// in order from `first`, skipping the places in `missing` (ascending): -1 at those.
inline Index particleAtPlace(Index first, const std::vector<int>& missing, int place) {
    const auto hole = std::lower_bound(missing.begin(), missing.end(), place);
    if (hole != missing.end() && *hole == place) return -1;
    return first + place - static_cast<Index>(hole - missing.begin());
}

// The place of a particle laid out as particleAtPlace lays them out (its inverse): particle
// i = particle - first is at place i + j, j the holes before it, which are the k with
// missing[k] - k <= i (missing[k] - k does not decrease along the list: a binary search).
inline int placeOfParticle(Index first, const std::vector<int>& missing, Index particle) {
    const Index i = particle - first;
    int low = 0, high = static_cast<int>(missing.size());
    while (low < high) {
        const int mid = (low + high) / 2;
        if (missing[mid] - mid <= i) low = mid + 1;
        else high = mid;
    }
    return static_cast<int>(i) + low;
}

// A cloth of triangle energies over a grid of columns x rows places (column i of row j is
// place j columns + i), whose rest shape is a width x height rectangle in (u, v). The places
// in `missing` are holes (particles deleted from the cloth); the particles of the others are
// the scene's, laid out row by row from firstParticle. The cloth is the grid's triangles
// (gridTriangles, Cloth.h) whose three corners are all there.
struct ClothSpec {
    Index firstParticle = 0;
    int columns = 2, rows = 2;
    double width = 1.0, height = 1.0;  // m
    ClothMaterial material;
    std::vector<int> missing;  // ascending

    int placeCount() const { return columns * rows; }
    Index particleCount() const { return placeCount() - static_cast<Index>(missing.size()); }
    // The particle at a grid place, or -1 at a hole.
    Index particleAt(int place) const { return particleAtPlace(firstParticle, missing, place); }
    // f(a, b, c) with the particles of each grid triangle whose corners are all there, in
    // forEachGridTriangle's order.
    template <class F>
    void forEachTriangle(F&& f) const {
        forEachGridTriangle(columns, rows, [&](int a, int b, int c) {
            const Index pa = particleAt(a), pb = particleAt(b), pc = particleAt(c);
            if (pa >= 0 && pb >= 0 && pc >= 0) f(pa, pb, pc);
        });
    }
    // f(a, b, rest length) for each edge along a row or a column with both ends there.
    template <class F>
    void forEachGridEdge(F&& f) const {
        const double du = width / (columns - 1), dv = height / (rows - 1);
        for (int j = 0; j < rows; ++j)
            for (int i = 0; i < columns; ++i) {
                const int place = j * columns + i;
                const Index p = particleAt(place);
                if (p < 0) continue;
                if (const Index q = i + 1 < columns ? particleAt(place + 1) : -1; q >= 0) f(p, q, du);
                if (const Index q = j + 1 < rows ? particleAt(place + columns) : -1; q >= 0) f(p, q, dv);
            }
    }
    // Whether any triangle has its three corners (a cloth with none has no energy).
    bool hasTriangle() const {
        bool any = false;
        forEachTriangle([&](Index, Index, Index) { any = true; });
        return any;
    }
    // Those triangles with their rest shape, for the cloth's energies.
    std::vector<ClothTriangle> triangles() const {
        std::vector<ClothTriangle> out;
        for (ClothTriangle t : gridTriangles(0, columns, rows, width, height)) {
            bool there = true;
            for (Index& p : t.particles) {
                p = particleAt(static_cast<int>(p));
                there = there && p >= 0;
            }
            if (there) out.push_back(t);
        }
        return out;
    }
    bool operator==(const ClothSpec&) const = default;
};

// Hair: `strands` strands of `length` places each (place k of strand s is s length + k). The
// places in `missing` were cut out (particles deleted from the hair); the particles of the
// others are laid out in order from firstParticle, so that a cut strand is runs of
// consecutive particles, each its own strand (the forces of makeHair, Cloth.h). Their rest
// shape is restShape (one point per particle), or where the particles are in the scene when it
// is empty (a scene read back from a running model keeps the rest shape it was built with,
// not the one gravity has bent).
struct HairSpec {
    Index firstParticle = 0;
    int strands = 1, length = 2;
    HairMaterial material;
    std::vector<Vec3> restShape;
    std::vector<int> missing;  // ascending

    int placeCount() const { return strands * length; }
    Index particleCount() const { return placeCount() - static_cast<Index>(missing.size()); }
    Index particleAt(int place) const { return particleAtPlace(firstParticle, missing, place); }
    int placeOf(Index particle) const { return placeOfParticle(firstParticle, missing, particle); }
    // The runs of consecutive places there, strand by strand from the root: a strand that was
    // never cut is one run; a particle cut off on both sides is a run of one.
    std::vector<StrandRun> runs() const {
        std::vector<StrandRun> out;
        for (int s = 0; s < strands; ++s)
            for (int k = 0; k < length;) {
                const Index first = particleAt(s * length + k);
                int n = 0;
                while (k + n < length && particleAt(s * length + k + n) >= 0) ++n;
                if (n > 0) out.push_back({first, n});
                k += std::max(n, 1);
            }
        return out;
    }
    // Whether any two particles of a strand are left side by side (hair with none has no force).
    bool hasSegment() const {
        const std::vector<StrandRun> pieces = runs();
        return std::any_of(pieces.begin(), pieces.end(), [](const StrandRun& r) { return r.length > 1; });
    }
    bool operator==(const HairSpec&) const = default;
};

struct Scene {
    std::string name;
    std::string description;
    SimulationSettings settings;
    std::vector<ParticleInit> particles;
    std::vector<RigidBodySpec> bodies;
    std::vector<DampedSpring> springs;  // rest lengths are always resolved (files may omit them)
    std::vector<Plane> planes;          // unit normals
    std::vector<ConstraintSpec> constraints;
    std::vector<ParametricBead> parametricBeads;
    std::vector<Wire> wires;
    std::vector<ClothSpec> cloths;
    std::vector<HairSpec> hair;
    // The force fields switched on (the wind on the cloths): at most one of each kind, in the
    // order of forceFieldKinds().
    std::vector<ForceFieldSpec> fields;
    // The integrators compare mode runs this scene under (the app's Ctrl+K, tinkerbox-sim
    // compare): 2 to 4 names; empty: their defaults.
    std::vector<std::string> compare;

    // The field of that kind, or nullptr when it is off.
    const ForceFieldSpec* field(const ForceFieldKind& kind) const {
        for (const ForceFieldSpec& f : fields)
            if (&forceFieldKind(f) == &kind) return &f;
        return nullptr;
    }

    bool operator==(const Scene&) const = default;
};

}  // namespace tinkerbox
