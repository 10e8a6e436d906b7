#include "editor/Clipboard.h"

#include <algorithm>
#include <cmath>

namespace tinkerbox {

SceneFragment copyItems(const Scene& scene, const Selection& selection) {
    SceneFragment fragment;
    // Old index to index in the fragment, -1 for what stays behind.
    std::vector<Index> particle(scene.particles.size(), -1), body(scene.bodies.size(), -1);
    for (Index i : selection.particles) {
        if (i < 0 || static_cast<std::size_t>(i) >= scene.particles.size()) continue;
        particle[i] = static_cast<Index>(fragment.particles.size());
        fragment.particles.push_back(scene.particles[i]);
    }
    for (Index k : selection.bodies) {
        if (k < 0 || static_cast<std::size_t>(k) >= scene.bodies.size()) continue;
        body[k] = static_cast<Index>(fragment.bodies.size());
        fragment.bodies.push_back(scene.bodies[k]);
    }
    for (Index k : selection.wires)
        if (k >= 0 && static_cast<std::size_t>(k) < scene.wires.size()) fragment.wires.push_back(scene.wires[k]);
    const auto renumber = [&](Anchor& a) {
        const Index to = a.isParticle() ? particle[a.index()] : body[a.index()];
        a.body.index = to;
        return to >= 0;
    };
    for (DampedSpring s : scene.springs)
        if (renumber(s.a) && renumber(s.b)) fragment.springs.push_back(s);
    for (ConstraintSpec spec : scene.constraints) {
        bool inside = true;
        forEachAnchor(spec, [&](Anchor& a) { inside = renumber(a) && inside; });
        if (inside) fragment.constraints.push_back(spec);
    }
    // The selected particles keep their order, so the selected ones of a cloth or a hair stay
    // one contiguous range: the piece copied is a cloth (hair) of its own, over the smallest
    // grid around the selected places (the strands with a selected particle), the others missing.
    const auto selected = [&](const auto& group, int place) {
        const Index p = group.particleAt(place);
        return p >= 0 && particle[p] >= 0;
    };
    for (const ClothSpec& c : scene.cloths) {
        int lowI = c.columns, highI = -1, lowJ = c.rows, highJ = -1;
        for (int place = 0; place < c.placeCount(); ++place)
            if (selected(c, place)) {
                const int i = place % c.columns, j = place / c.columns;
                lowI = std::min(lowI, i), highI = std::max(highI, i), lowJ = std::min(lowJ, j),
                highJ = std::max(highJ, j);
            }
        if (highI <= lowI || highJ <= lowJ) continue;  // no cell: no triangle
        ClothSpec piece = c;
        piece.columns = highI - lowI + 1;
        piece.rows = highJ - lowJ + 1;
        piece.width = c.width / (c.columns - 1) * (piece.columns - 1);
        piece.height = c.height / (c.rows - 1) * (piece.rows - 1);
        piece.missing.clear();
        piece.firstParticle = -1;
        for (int j = lowJ; j <= highJ; ++j)
            for (int i = lowI; i <= highI; ++i) {
                const int place = j * c.columns + i;
                if (!selected(c, place)) piece.missing.push_back((j - lowJ) * piece.columns + (i - lowI));
                else if (piece.firstParticle < 0) piece.firstParticle = particle[c.particleAt(place)];
            }
        if (piece.hasTriangle()) fragment.cloths.push_back(std::move(piece));
    }
    for (const HairSpec& h : scene.hair) {
        HairSpec piece = h;
        piece.strands = 0;
        piece.missing.clear();
        piece.restShape.clear();
        piece.firstParticle = -1;
        for (int strand = 0; strand < h.strands; ++strand) {
            bool any = false;
            for (int k = 0; k < h.length; ++k) any = any || selected(h, strand * h.length + k);
            if (!any) continue;
            for (int k = 0; k < h.length; ++k) {
                const int place = strand * h.length + k, to = piece.strands * h.length + k;
                if (!selected(h, place)) {
                    piece.missing.push_back(to);
                    continue;
                }
                const Index p = h.particleAt(place);
                if (piece.firstParticle < 0) piece.firstParticle = particle[p];
                if (!h.restShape.empty()) piece.restShape.push_back(h.restShape[p - h.firstParticle]);
            }
            ++piece.strands;
        }
        if (piece.hasSegment()) fragment.hair.push_back(std::move(piece));
    }
    return fragment;
}

Selection pasteItems(Scene& scene, const SceneFragment& fragment, const Vec3& offset) {
    const auto count = [](const auto& items) { return static_cast<Index>(items.size()); };
    const Index particleBase = count(scene.particles), bodyBase = count(scene.bodies);
    Selection added;
    for (ParticleInit p : fragment.particles) {
        p.position += offset;
        added.particles.insert(count(scene.particles));
        scene.particles.push_back(p);
    }
    for (RigidBodySpec b : fragment.bodies) {
        b.position += offset;
        added.bodies.insert(count(scene.bodies));
        scene.bodies.push_back(b);
    }
    for (Wire w : fragment.wires) {
        w.center += offset;
        added.wires.insert(count(scene.wires));
        scene.wires.push_back(w);
    }
    const auto shift = [&](Anchor& a) { a.body.index += a.isParticle() ? particleBase : bodyBase; };
    for (DampedSpring s : fragment.springs) {
        shift(s.a);
        shift(s.b);
        added.springs.insert(count(scene.springs));
        scene.springs.push_back(s);
    }
    for (ConstraintSpec spec : fragment.constraints) {
        forEachAnchor(spec, shift);
        forEachWorldPoint(spec, [&](Vec3& x) { x += offset; });
        added.constraints.insert(count(scene.constraints));
        scene.constraints.push_back(spec);
    }
    for (ClothSpec c : fragment.cloths) {
        c.firstParticle += particleBase;
        scene.cloths.push_back(c);
    }
    for (HairSpec h : fragment.hair) {
        h.firstParticle += particleBase;
        for (Vec3& x : h.restShape) x += offset;
        scene.hair.push_back(h);
    }
    return added;
}

Vec3 fragmentCentre(const SceneFragment& fragment) {
    Vec3 low = Vec3::Constant(INFINITY), high = Vec3::Constant(-INFINITY);
    const auto include = [&](const Vec3& p) {
        low = low.cwiseMin(p);
        high = high.cwiseMax(p);
    };
    for (const ParticleInit& p : fragment.particles) include(p.position);
    for (const RigidBodySpec& b : fragment.bodies) include(b.position);
    for (const Wire& w : fragment.wires) include(w.center);
    return fragment.empty() ? Vec3::Zero() : Vec3(0.5 * (low + high));
}

}  // namespace tinkerbox
