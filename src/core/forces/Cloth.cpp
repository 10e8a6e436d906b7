#include "core/forces/Cloth.h"

#include <map>
#include <stdexcept>

namespace tinkerbox {

namespace {
double uvArea(const ClothTriangle& t) {
    const Eigen::Vector2d d1 = t.restUV[1] - t.restUV[0], d2 = t.restUV[2] - t.restUV[0];
    return 0.5 * std::abs(d1.x() * d2.y() - d1.y() * d2.x());
}
}  // namespace

std::unique_ptr<TriangleStretchShear> makeStretchShear(const std::vector<ClothTriangle>& triangles,
                                                       const ClothMaterial& material) {
    auto force = std::make_unique<TriangleStretchShear>();
    for (const ClothTriangle& t : triangles) {
        const double a = uvArea(t);
        StretchShearTriangle s;
        s.particles = t.particles;
        s.restUV = t.restUV;
        if (a > 0.0) {
            s.stretchStiffness = material.stretch / a;
            s.stretchDamping = material.stretchDamping / a;
            s.shearStiffness = material.shear / a;
            s.shearDamping = material.shearDamping / a;
        }
        force->add(s);
    }
    return force;
}

std::unique_ptr<DihedralBending> makeBending(const std::vector<ClothTriangle>& triangles,
                                             const ClothMaterial& material) {
    // Each edge (as the pair of its particles, smaller first): the first triangle seen and
    // the corner opposite the edge in it.
    struct Side {
        std::size_t triangle;
        int opposite;  // corner index 0..2
    };
    std::map<std::pair<Index, Index>, Side> firstSide;
    auto force = std::make_unique<DihedralBending>();
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        const ClothTriangle& tri = triangles[t];
        for (int corner = 0; corner < 3; ++corner) {
            const int i = (corner + 1) % 3,
                      j = (corner + 2) % 3;  // the edge opposite `corner`, in the triangle's order
            const Index a = tri.particles[i], b = tri.particles[j];
            const auto key = std::minmax(a, b);
            const auto [it, inserted] = firstSide.try_emplace({key.first, key.second}, Side{t, corner});
            if (inserted) continue;
            const ClothTriangle& other = triangles[it->second.triangle];
            const int otherCorner = it->second.opposite;
            // The hinge (x0, x1, x2, x3): x0 -> x1 in the first triangle's order, x2 its opposite corner.
            const int oi = (otherCorner + 1) % 3, oj = (otherCorner + 2) % 3;
            BendingHinge h;
            h.particles = {other.particles[oi], other.particles[oj], other.particles[otherCorner],
                           tri.particles[corner]};
            // The rest edge length and triangle areas from (u, v).
            const Eigen::Vector2d edge = other.restUV[oj] - other.restUV[oi];
            const double areas = uvArea(other) + uvArea(tri);
            const double weight = areas > 0.0 ? edge.squaredNorm() / areas : 0.0;
            h.stiffness = material.bend * weight;
            h.damping = material.bendDamping * weight;
            const Eigen::Vector2d corners[4] = {other.restUV[oi], other.restUV[oj], other.restUV[otherCorner],
                                                tri.restUV[corner]};
            for (int m = 0; m < 4; ++m) h.restShape.segment<3>(3 * m) << corners[m], 0.0;
            force->add(h);
        }
    }
    return force;
}

std::vector<ClothTriangle> gridTriangles(Index firstParticle, int columns, int rows, double width, double height) {
    if (columns < 2 || rows < 2) throw std::invalid_argument("a cloth grid needs at least 2 x 2 particles");
    const double du = width / (columns - 1), dv = height / (rows - 1);
    const auto uv = [&](int k) { return Eigen::Vector2d((k % columns) * du, (k / columns) * dv); };
    std::vector<ClothTriangle> out;
    out.reserve(2 * static_cast<std::size_t>(columns - 1) * (rows - 1));
    forEachGridTriangle(columns, rows, [&](int a, int b, int c) {
        out.push_back({{firstParticle + a, firstParticle + b, firstParticle + c}, {uv(a), uv(b), uv(c)}});
    });
    return out;
}

HairForces makeHair(const std::vector<Vec3>& x, Index first, int strands, int length, const HairMaterial& material) {
    std::vector<StrandRun> runs;
    for (int s = 0; s < strands; ++s) runs.push_back({first + static_cast<Index>(s) * length, length});
    return makeHair(x, runs, material);
}

HairForces makeHair(const std::vector<Vec3>& x, const std::vector<StrandRun>& strands, const HairMaterial& material) {
    HairForces out{std::make_unique<DampedSpringSet>(), std::make_unique<AngularSpringSet>(),
                   std::make_unique<DihedralBending>()};
    constexpr double kCurled = 1e-3;  // rad: a joint that bends less has no plane to hold a twist in
    for (const StrandRun& strand : strands) {
        const Index base = strand.first;
        const int length = strand.length;
        const auto p = [&](int k) { return x[static_cast<std::size_t>(base + k)]; };
        for (int k = 0; k + 1 < length; ++k) {
            const double l = (p(k + 1) - p(k)).norm();
            if (l <= 0.0) throw std::invalid_argument("a hair segment has no length");
            out.segments->add({base + k, base + k + 1, material.stretch / l, material.stretchDamping / l, l});
        }
        for (int k = 1; k + 1 < length; ++k) {
            const double l = 0.5 * ((p(k) - p(k - 1)).norm() + (p(k + 1) - p(k)).norm());
            out.joints->add({{base + k - 1, base + k, base + k + 1},
                             material.bend / l,
                             material.bendDamping / l,
                             jointAngle(p(k - 1), p(k), p(k + 1)),
                             (p(k) - p(k - 1)).norm(),
                             (p(k + 1) - p(k)).norm()});
        }
        for (int k = 1; k + 2 < length; ++k) {
            if (jointAngle(p(k - 1), p(k), p(k + 1)) < kCurled || jointAngle(p(k), p(k + 1), p(k + 2)) < kCurled)
                continue;
            // The hinge of the segment (k, k + 1) between the planes of its two joints.
            BendingHinge h;
            h.particles = {base + k, base + k + 1, base + k - 1, base + k + 2};
            Eigen::Matrix<double, 12, 1> rest;
            for (int m = 0; m < 4; ++m) rest.segment<3>(3 * m) = x[static_cast<std::size_t>(h.particles[m])];
            h.restAngle = dihedralAngle(rest);
            h.restShape = rest;
            const double l = (p(k + 1) - p(k)).norm();
            h.stiffness = material.twist / l;
            h.damping = material.bendDamping / l;
            out.twist->add(h);
        }
    }
    return out;
}

namespace {

constexpr Parameter<ClothMaterial> kClothMaterialParameters[] = {
    {.key = "stretch",
     .label = "stretch",
     .help = "N/m: the energy stretch/2 (S_u^2 + S_v^2) per unit area.",
     .max = kMaxSceneMagnitude,
     .get = [](const ClothMaterial& m) { return m.stretch; },
     .set = [](ClothMaterial& m, double v) { m.stretch = v; }},
    {.key = "shear",
     .label = "shear",
     .help = "N/m: the energy shear/2 (w_u . w_v)^2 per unit area.",
     .max = kMaxSceneMagnitude,
     .get = [](const ClothMaterial& m) { return m.shear; },
     .set = [](ClothMaterial& m, double v) { m.shear = v; }},
    {.key = "bend",
     .label = "bend",
     .help = "N m: the energy bend/2 kappa^2 per unit area across each inner edge.",
     .max = kMaxSceneMagnitude,
     .get = [](const ClothMaterial& m) { return m.bend; },
     .set = [](ClothMaterial& m, double v) { m.bend = v; }},
    {.key = "stretch_damping",
     .label = "stretch damp.",
     .help = "kg/s per unit area, on the stretch conditions' rates.",
     .max = kMaxSceneMagnitude,
     .get = [](const ClothMaterial& m) { return m.stretchDamping; },
     .set = [](ClothMaterial& m, double v) { m.stretchDamping = v; }},
    {.key = "shear_damping",
     .label = "shear damp.",
     .help = "kg/s per unit area, on the shear condition's rate.",
     .max = kMaxSceneMagnitude,
     .get = [](const ClothMaterial& m) { return m.shearDamping; },
     .set = [](ClothMaterial& m, double v) { m.shearDamping = v; }},
    {.key = "bend_damping",
     .label = "bend damp.",
     .help = "kg m^2/s, on the bending angle's rate.",
     .max = kMaxSceneMagnitude,
     .get = [](const ClothMaterial& m) { return m.bendDamping; },
     .set = [](ClothMaterial& m, double v) { m.bendDamping = v; }},
};

constexpr Parameter<HairMaterial> kHairMaterialParameters[] = {
    {.key = "stretch",
     .label = "stretch",
     .help = "N: a segment of rest length l is a spring of stiffness stretch / l.",
     .max = kMaxSceneMagnitude,
     .get = [](const HairMaterial& m) { return m.stretch; },
     .set = [](HairMaterial& m, double v) { m.stretch = v; }},
    {.key = "bend",
     .label = "bend",
     .help = "N m^2: a joint between segments of mean length l has k = bend / l.",
     .max = kMaxSceneMagnitude,
     .get = [](const HairMaterial& m) { return m.bend; },
     .set = [](HairMaterial& m, double v) { m.bend = v; }},
    {.key = "twist",
     .label = "twist",
     .help = "N m^2: the spring holding the plane of a curl, k = twist / l.",
     .max = kMaxSceneMagnitude,
     .get = [](const HairMaterial& m) { return m.twist; },
     .set = [](HairMaterial& m, double v) { m.twist = v; }},
    {.key = "stretch_damping",
     .label = "stretch damp.",
     .help = "kg m/s: a segment's damping is this over its length.",
     .max = kMaxSceneMagnitude,
     .get = [](const HairMaterial& m) { return m.stretchDamping; },
     .set = [](HairMaterial& m, double v) { m.stretchDamping = v; }},
    {.key = "bend_damping",
     .label = "bend damp.",
     .help = "kg m^3/s: likewise, for the joints and the twist.",
     .max = kMaxSceneMagnitude,
     .get = [](const HairMaterial& m) { return m.bendDamping; },
     .set = [](HairMaterial& m, double v) { m.bendDamping = v; }},
};

}  // namespace

std::span<const Parameter<ClothMaterial>> clothMaterialParameters() { return kClothMaterialParameters; }

std::span<const Parameter<HairMaterial>> hairMaterialParameters() { return kHairMaterialParameters; }

}  // namespace tinkerbox
