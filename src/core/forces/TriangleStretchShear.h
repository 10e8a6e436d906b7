#pragma once
// In-plane cloth energies on triangles with rest (u, v) coordinates (Baraff and Witkin,
// Large Steps in Cloth Simulation, SIGGRAPH 1998, section 4.2). The map from (u, v) to
// the world is linear on a triangle: [w_u w_v] = [dx1 dx2] [du1 du2; dv1 dv2]^-1, with
// dx1 = x_j - x_i, du1 = u_j - u_i and so on. With a the triangle's rest area in (u, v):
//   stretch C = a (|w_u| - b_u, |w_v| - b_v)   (equation 10; b = 1: no stretch at rest),
//   shear   C = a w_u . w_v                     (equation 11),
// each with energy k/2 C^T C and damping d = -kd dC/dx Cdot (section 4.5).
// The stiffness and damping are per triangle: a material's per-area constants divided by
// a (ClothMaterial.h), so that the energy is k_material/2 (S_u^2 + S_v^2) a whatever the mesh.
// Definite Jacobians: the stretch curvature term is kept where the triangle is stretched
// (|w| > b: positive semi-definite) and dropped where it is compressed; the shear
// curvature term is indefinite and always dropped (docs/integrators.md).
#include "core/forces/ParticleElementForce.h"

namespace tinkerbox {

struct StretchShearTriangle {
    std::array<Index, 3> particles{};
    std::array<Eigen::Vector2d, 3> restUV{};  // (u, v) of each corner
    double stretchStiffness = 0.0;  // per triangle
    double stretchDamping = 0.0;
    double shearStiffness = 0.0;
    double shearDamping = 0.0;
    double bu = 1.0, bv = 1.0;  // rest stretch along u and v
};

class TriangleStretchShear final : public ParticleElementForce<3> {
public:
    // Throws std::invalid_argument for a triangle whose rest (u, v) corners are on one line.
    Index add(const StretchShearTriangle& t);
    const StretchShearTriangle& triangle(Index e) const { return triangles_[e].spec; }
    double restArea(Index e) const { return triangles_[e].area; }
    // The stretch along u and v and the shear (w_u . w_v) of a triangle now.
    Vec3 strain(const World& world, Index e) const;

protected:
    void elementForce(const World& world, Index e, const Vector& x, const Vector& v, Vector& fe) const override;
    double elementEnergy(Index e, const Vector& x) const override;
    void elementJacobians(const World& world, Index e, const Vector& x, const Vector& v, const JacobianRequest& request,
                          Matrix& K, Vector& KxV) const override;

private:
    struct Triangle {
        StretchShearTriangle spec;
        double area;  // a
        Vec3 du, dv;  // w_u = sum_m du_m x_m, w_v = sum_m dv_m x_m
    };
    // The three conditions (stretch u, stretch v, shear), with the Hessians asked for.
    enum class Hessians { None, WhereStretched, All };
    void conditions(const Triangle& t, const Vector& x, Hessians hessians, ElementCondition<3> c[3]) const;

    std::vector<Triangle> triangles_;
};

}  // namespace tinkerbox
