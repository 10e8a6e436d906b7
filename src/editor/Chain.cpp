#include "editor/Chain.h"

#include <cmath>

namespace tinkerbox {

std::vector<Vec3> hangingRope(const Vec3& a, const Vec3& b, int count, double length, const Vec3& gravity,
                              const Vec3& planeNormal) {
    std::vector<Vec3> points;
    const Vec3 span = b - a;
    const double distance = span.norm();
    const double spacing = length / (count + 1);
    if (count <= 0 || !(distance > 0.0) || length <= distance * (1.0 + 1e-9)) {
        for (int k = 1; k <= count; ++k) points.push_back(a + span * (static_cast<double>(k) / (count + 1)));
        return points;
    }
    // A frame in the rope's plane: x horizontal from a towards b, y up (against gravity).
    Vec3 down = gravity.norm() > 0.0 ? Vec3(gravity.normalized()) : Vec3::Zero();
    Vec3 horizontal = span - span.dot(down) * down;
    if (down.isZero() || horizontal.norm() < 1e-3 * distance) {
        // No gravity, or b straight above or below a: sag across the span in the work plane,
        // downwards as far as that goes.
        Vec3 across = planeNormal.cross(span);
        if (across.norm() < 1e-12 * distance) across = span.unitOrthogonal();
        across.normalize();
        down = across.dot(gravity) < 0.0 || (gravity.norm() == 0.0 && across.y() > 0.0) ? Vec3(-across) : across;
        horizontal = span;
    }
    const double h = horizontal.norm();
    const Vec3 ex = horizontal / h, ey = -down;
    const double v = span.dot(ey);
    // The common catenary y = c cosh((x - x0) / c) + const, of arc length c sinh((x - x0) / c)
    // from its vertex; through two points h apart across and v up with a length L between
    // them, sqrt(L^2 - v^2) = 2 c sinh(h / 2c) (Routh, A Treatise on Analytical Statics,
    // vol. 1, 1891, the chapter on strings). With xi = h / 2c this is sinh(xi) / xi = r,
    // r = sqrt(L^2 - v^2) / h > 1, whose root bisection finds (the left side grows with xi).
    const double r = std::sqrt(length * length - v * v) / h;
    double low = 0.0, high = 1.0;
    while (std::sinh(high) / high < r) high *= 2.0;
    for (int iteration = 0; iteration < 200 && high - low > 1e-15 * high; ++iteration) {
        const double mid = 0.5 * (low + high);
        (std::sinh(mid) / mid < r ? low : high) = mid;
    }
    const double xi = 0.5 * (low + high), c = h / (2.0 * xi);
    // The vertex's abscissa x0, from the rise between the ends:
    // v = c (cosh((h - x0) / c) - cosh(x0 / c)) = 2 c sinh((h / 2 - x0) / c) sinh(xi).
    const double x0 = 0.5 * h - c * std::asinh(v / (2.0 * c * std::sinh(xi)));
    const double s0 = std::sinh(-x0 / c), y0 = std::cosh(-x0 / c);
    for (int k = 1; k <= count; ++k) {
        // The point at arc length s from a: sinh((x - x0) / c) = s0 + s / c.
        const double u = s0 + k * spacing / c;
        const double x = x0 + c * std::asinh(u);
        const double y = c * (std::sqrt(1.0 + u * u) - y0);
        points.push_back(a + x * ex + y * ey);
    }
    return points;
}

}  // namespace tinkerbox
