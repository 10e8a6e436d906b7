#include "core/bodies/MassProperties.h"

#include <Eigen/Eigenvalues>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/bodies/ShapeKind.h"

namespace tinkerbox {

// A solid box of edges a, b, c: I = V/12 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2).
MassProperties massProperties(const BoxShape& box) {
    if (!box.size.allFinite() || (box.size.array() <= 0.0).any())
        throw std::invalid_argument("a box's edge lengths must be positive and finite");
    const Vec3 squared = box.size.cwiseProduct(box.size);
    MassProperties result;
    result.volume = box.size.prod();
    result.inertia.diagonal() =
        result.volume / 12.0 * Vec3(squared.y() + squared.z(), squared.x() + squared.z(), squared.x() + squared.y());
    return result;
}

// A solid sphere: V = 4/3 pi r^3, I = 2/5 V r^2 on every axis.
MassProperties massProperties(const SphereShape& sphere) {
    if (!std::isfinite(sphere.radius) || sphere.radius <= 0.0)
        throw std::invalid_argument("a sphere's radius must be positive and finite");
    const double r = sphere.radius;
    MassProperties result;
    result.volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;
    result.inertia.diagonal().setConstant(0.4 * result.volume * r * r);
    return result;
}

// Each triangle (a, b, c), taken relative to a reference point o, closes a tetrahedron
// (o, a, b, c) of signed volume D/6, D = a . (b x c); the signs cancel the parts outside the
// mesh. Over that tetrahedron (Tonon 2004; Blow and Binstock 2004, the canonical
// tetrahedron's covariance carried by the affine map [a b c]):
//   integral of x dV     = D/24 (a + b + c),
//   integral of x x^T dV = D/120 (a a^T + b b^T + c c^T + s s^T),  s = a + b + c.
// The covariance C about the centre of mass follows by the parallel-axis theorem, and the
// inertia tensor is I = trace(C) 1 - C. The mean of the vertices as o keeps the products
// small where the mesh is far from its frame's origin.
MassProperties massProperties(const ConvexHull& mesh) {
    Vec3 origin = Vec3::Zero();
    for (const Vec3& x : mesh.vertices) origin += x;
    if (!mesh.vertices.empty()) origin /= static_cast<double>(mesh.vertices.size());

    double sixVolume = 0.0;
    Vec3 firstMoment = Vec3::Zero();   // x 24
    Mat3 secondMoment = Mat3::Zero();  // x 120
    for (const auto& t : mesh.triangles) {
        const Vec3 a = mesh.vertices[t[0]] - origin, b = mesh.vertices[t[1]] - origin, c = mesh.vertices[t[2]] - origin;
        const double d = a.dot(b.cross(c));
        const Vec3 s = a + b + c;
        sixVolume += d;
        firstMoment += d * s;
        secondMoment += d * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
    const double volume = sixVolume / 6.0;
    if (!(volume > 0.0) || !std::isfinite(volume))
        throw std::invalid_argument("a mesh's volume must be positive (closed, with outward triangles)");

    const Vec3 center = firstMoment / 24.0 / volume;
    const Mat3 covariance = secondMoment / 120.0 - volume * center * center.transpose();
    MassProperties result;
    result.volume = volume;
    result.centerOfMass = origin + center;
    result.inertia = covariance.trace() * Mat3::Identity() - covariance;
    return result;
}

MassProperties massProperties(const Shape& shape) { return shapeKind(shape).massProperties(shape, nullptr); }

PrincipalAxes principalAxes(const Mat3& inertia) {
    const Eigen::SelfAdjointEigenSolver<Mat3> solver(inertia);
    Mat3 axes = solver.eigenvectors();
    if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);  // a rotation, not a reflection
    PrincipalAxes result;
    result.rotation = Quat(axes).normalized();
    result.moments = solver.eigenvalues();
    return result;
}

}  // namespace tinkerbox
