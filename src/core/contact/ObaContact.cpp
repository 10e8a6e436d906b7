#include "core/contact/ObaContact.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "core/contact/ContactFrame.h"
#include "core/contact/FrictionPyramid.h"
#include "core/dynamics/World.h"
#include "core/forces/Gravity.h"

namespace tinkerbox {

namespace {
constexpr ContactModelParameter kObaParameters[] = {
    {.key = "oba_freezing",
     .option = "oba-freezing",
     .label = "freezing",
     .help = "Bodies at rest on fixed or frozen bodies stop being simulated until hit (drawn icy blue).",
     .type = ParameterType::Flag,
     .get = [](const ContactModelSettings& s) { return s.freezing ? 1.0 : 0.0; },
     .set = [](ContactModelSettings& s, double v) { s.freezing = v != 0.0; }},
    {.key = "oba_hop_fix",
     .option = "oba-hop-fix",
     .label = "hop fix",
     .help = "Normal impulses first, then friction: a box sliding fast stays on the ground (off: the thesis's hop).",
     .type = ParameterType::Flag,
     .get = [](const ContactModelSettings& s) { return s.hopFix ? 1.0 : 0.0; },
     .set = [](ContactModelSettings& s, double v) { s.hopFix = v != 0.0; }},
};
}  // namespace

constexpr ContactModelKind kObaContactKind{
    .name = "oba",
    .summary =
        "Schmidl's optimization-based animation: one quadratic program per step for the impulses, "
        "then programs that move the bodies apart.",
    .parameters = kObaParameters,
    .make = [](const ContactModelSettings& s) -> std::unique_ptr<ContactModel> {
        return std::make_unique<ObaContact>(s);
    },
};

namespace {

using Triplet = Eigen::Triplet<double>;

Vec3 gravityOf(const World& world) {
    Vec3 g = Vec3::Zero();
    for (const auto& force : world.forces())
        if (const auto* gravity = dynamic_cast<const Gravity*>(force.get())) g += gravity->acceleration();
    return g;
}

// A small multiple of the identity added to a semi-definite Hessian: of the impulses that
// give the same velocities (four corners of a face hold a box in many ways), the program
// then takes the smallest, and its linear systems stay regular.
constexpr double kRegularization = 1e-9;
// m/s: how much faster than the frictionless impulses left it a point may separate under the
// hop fix, so that the bounds above and below a resting point's velocity leave the program an
// interior (a hop of this speed lifts a box by 3e-8 m in a step of 1/30 s).
constexpr double kSeparationSlack = 1e-6;

// A world point in a collider's frame and back: a rigid body's body frame, a particle's
// position as origin (it does not turn), a plane's world frame (it does not move).
Vec3 toColliderFrame(const World& world, const ColliderRef& c, const Vec3& point) {
    switch (c.kind) {
        case ColliderKind::Particle: return point - world.position(c.index);
        case ColliderKind::Rigid:
            return world.rigidBodies().orientation(c.index).conjugate() *
                   (point - world.rigidBodies().position(c.index));
        case ColliderKind::Plane: return point;
    }
    return point;
}

Vec3 fromColliderFrame(const World& world, const ColliderRef& c, const Vec3& local) {
    switch (c.kind) {
        case ColliderKind::Particle: return world.position(c.index) + local;
        case ColliderKind::Rigid:
            return world.rigidBodies().position(c.index) + world.rigidBodies().orientation(c.index) * local;
        case ColliderKind::Plane: return local;
    }
    return local;
}

// A program's answer is used when it met its tolerance, or came within a thousand times of
// it (an interior-point method can stall just short on a degenerate set of contacts); one
// that did not come near is not: an infeasible program's iterates run away.
constexpr double kUsableResidual = 1e-6;

bool usable(const QuadraticProgramResult& r) {
    return r.converged ||
           (std::max({r.primalResidual, r.dualResidual, r.complementarity}) <= kUsableResidual && r.x.allFinite());
}

}  // namespace

void ObaContact::reset() {
    detector_ = ContactDetector(kMaxContactPoints);
    manifolds_.clear();
    rows_.clear();
    restTime_.clear();
    frozen_.clear();
    frozenPosition_.clear();
    frozenOrientation_.clear();
    rollbacks_ = 0;
}

void ObaContact::setSettings(const ContactModelSettings& settings) {
    settings_ = settings;
    if (!settings_.freezing) std::fill(frozen_.begin(), frozen_.end(), 0);
}

bool ObaContact::isFrozen(Index rigidBody) const {
    return rigidBody >= 0 && static_cast<std::size_t>(rigidBody) < frozen_.size() &&
           frozen_[static_cast<std::size_t>(rigidBody)] != 0;
}

bool ObaContact::isMovable(const World& world, const ColliderRef& c) const {
    switch (c.kind) {
        case ColliderKind::Particle: return !world.isNailed(c.index);
        case ColliderKind::Rigid: return !world.rigidBodies().isFixed(c.index) && !isFrozen(c.index);
        case ColliderKind::Plane: return false;
    }
    return false;
}

void ObaContact::buildAxis(const InverseMass& W, Row& row, const Vec3& direction, const Vec3& ra, const Vec3& rb,
                           Axis& axis) const {
    // The relative velocity along d at the point, d . (vb + wb x rb - va - wa x ra), is J u
    // with J = [-d, -(ra x d) | d, rb x d] (Schmidl, section 6.2.1, eq. 6.24); an impulse j d
    // changes u by W J^T j (eqs. 6.25, 6.26). A side that does not move (fixed, frozen, a
    // plane) has W = 0: its velocity is read, never changed.
    axis.linearA = -direction;
    axis.angularA = -ra.cross(direction);
    axis.linearB = direction;
    axis.angularB = rb.cross(direction);
    const Index spare = W.blocks();
    const auto weigh = [&](Index block, bool movable, const Vec3& j, Vec3& wj) {
        wj = block == spare || !movable ? Vec3::Zero() : W.apply(block, j);
        return j.dot(wj);
    };
    const double k = weigh(row.linearA, row.movableA, axis.linearA, axis.wLinearA) +
                     weigh(row.angularA, row.movableA, axis.angularA, axis.wAngularA) +
                     weigh(row.linearB, row.movableB, axis.linearB, axis.wLinearB) +
                     weigh(row.angularB, row.movableB, axis.angularB, axis.wAngularB);
    axis.effectiveMass = k > 0.0 ? 1.0 / k : 0.0;
}

void ObaContact::buildRows(const World& world, bool withFrozenPairs) {
    rows_.clear();
    const InverseMass& W = world.inverseMass();  // built anew by each call: once for all the rows
    for (const ContactManifold& m : manifolds_) {
        const bool movableA = isMovable(world, m.a), movableB = isMovable(world, m.b);
        // Pairs of which nothing moves are no contacts (section 6.7.2: frozen-fixed and
        // frozen-frozen pairs are left out).
        if (!movableA && !movableB && !withFrozenPairs) continue;
        const ContactMaterial material = manifoldMaterial(world, m);
        // The collision frame (n_x, n_y, n) of section 6.1.3; in a plane its one tangent.
        Vec3 t1, t2;
        contactTangents(world, m.normal, t1, t2);
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& p = m.points[static_cast<std::size_t>(i)];
            Row& row = rows_.emplace_back();
            row.a = m.a;
            row.b = m.b;
            row.movableA = movableA;
            row.movableB = movableB;
            Vec3 ra, rb;
            colliderBlocks(world, m.a, p.position, row.linearA, row.angularA, ra);
            colliderBlocks(world, m.b, p.position, row.linearB, row.angularB, rb);
            // A side without a block reads the spare zero block past the world's.
            for (Index* block : {&row.linearA, &row.angularA, &row.linearB, &row.angularB})
                if (*block < 0) *block = world.velocityBlocks();
            row.tangents = world.planar() ? 1 : 2;
            buildAxis(W, row, m.normal, ra, rb, row.axes[0]);
            buildAxis(W, row, t1, ra, rb, row.axes[1]);
            if (row.tangents == 2) buildAxis(W, row, t2, ra, rb, row.axes[2]);
            row.separation = p.separation;
            row.friction = material.friction;
            row.restitution = material.restitution;
        }
    }
}

double ObaContact::velocityAlong(const Axis& axis, const Row& row) const {
    return axis.linearA.dot(block3(u_, row.linearA)) + axis.angularA.dot(block3(u_, row.angularA)) +
           axis.linearB.dot(block3(u_, row.linearB)) + axis.angularB.dot(block3(u_, row.angularB));
}

void ObaContact::applyImpulse(const Axis& axis, const Row& row, double impulse) {
    block3(u_, row.linearA) += impulse * axis.wLinearA;
    block3(u_, row.angularA) += impulse * axis.wAngularA;
    block3(u_, row.linearB) += impulse * axis.wLinearB;
    block3(u_, row.angularB) += impulse * axis.wAngularB;
}

int ObaContact::solveProgram(QuadraticProgram& qp, VecX& solution) {
    const QuadraticProgramResult result = solveQuadraticProgram(qp);
    // An answer that cannot be used gives no impulse: the next position update takes out
    // what the bodies then overlap.
    if (usable(result)) solution = result.x;
    else solution = VecX::Zero(qp.H.rows());
    return result.iterations;
}

int ObaContact::solveImpulses(const World& world, double h) {
    // The contacts: points that touch (closer than kTouching), and gaps the relative velocity
    // closes within the next step (bounce at a distance, section 6.7.1: fed to the program
    // as if touching). A gap that stays open takes no impulse; in a program that minimizes
    // kinetic energy it would take one wherever one takes energy away.
    contacts_.clear();
    for (const Row& row : rows_)
        if (row.separation + velocityAlong(row.axes[0], row) * h < kTouching) contacts_.push_back(row);
    if (contacts_.empty()) return 0;
    // Schmidl, section 6.2.1 and appendix A.3.2: minimize the kinetic energy after the
    // impulses, 1/2 (u + W J^T j)^T M (u + W J^T j), subject to the momentum update of every
    // body (eqs. 6.25, 6.26), v_n+ >= target per point (eq. 6.27) and the friction pyramid
    // (eq. 6.23). As in the thesis the momentum update stays a set of equalities: the
    // variables are the impulses j and, per movable velocity block, the generalized impulse
    // p = J^T j it takes (3 numbers). Then the kinetic energy is 1/2 p^T W p + u^T p (less a
    // constant) and v_n+ = (J u)_n + (W J_n^T)^T p, every row as sparse as one point's axes,
    // and the program's matrix follows the bodies' contact graph. Eliminating p instead
    // leaves J W J^T, which couples every point of a body with every other: in a pile of
    // boxes that fills the factorization in (a 210-box pyramid took seconds per step).
    const Index tangents = contacts_.front().tangents;
    const Index perRow = 1 + tangents;
    const Index rows = static_cast<Index>(contacts_.size());
    const InverseMass& W = world.inverseMass();

    std::vector<Index> variableOf(static_cast<std::size_t>(W.blocks() + 1), -1);
    std::vector<Index> blocks;
    const auto use = [&](Index block, bool movable) {
        if (!movable || block == W.blocks() || variableOf[static_cast<std::size_t>(block)] >= 0) return;
        variableOf[static_cast<std::size_t>(block)] = static_cast<Index>(blocks.size());
        blocks.push_back(block);
    };
    double scale = 0.0;  // the largest J W J^T on an axis
    VecX freeNormal(rows), target(rows);
    for (Index r = 0; r < rows; ++r) {
        const Row& row = contacts_[static_cast<std::size_t>(r)];
        use(row.linearA, row.movableA);
        use(row.angularA, row.movableA);
        use(row.linearB, row.movableB);
        use(row.angularB, row.movableB);
        for (Index k = 0; k < perRow; ++k) {
            const double effectiveMass = row.axes[static_cast<std::size_t>(k)].effectiveMass;
            if (effectiveMass > 0.0) scale = std::max(scale, 1.0 / effectiveMass);
        }
        freeNormal[r] = velocityAlong(row.axes[0], row);
        target[r] = row.target;
    }
    const double epsilon = kRegularization * (scale > 0.0 ? scale : 1.0);
    const Index np = 3 * static_cast<Index>(blocks.size());

    // The program over the impulses of `axes` axes per point (the normal alone, or all) and p:
    // the rows c on j alone, then v_n+ >= target (and v_n+ <= upper) per point. Returns the
    // iterations; solution: j, then p.
    const auto solveOver = [&](Index axes, std::vector<Triplet> c, Index cRows, const VecX* upper, VecX& solution) {
        const Index nj = rows * axes, variables = nj + np;
        QuadraticProgram qp;
        std::vector<Triplet> h, a;
        for (Index i = 0; i < nj; ++i) h.emplace_back(i, i, epsilon);
        qp.g = VecX::Zero(variables);
        for (std::size_t v = 0; v < blocks.size(); ++v) {
            const Index first = nj + 3 * static_cast<Index>(v);
            for (int col = 0; col < 3; ++col) {
                const Vec3 column = W.apply(blocks[v], Vec3::Unit(col));
                for (int r = 0; r < 3; ++r)
                    if (column[r] != 0.0) h.emplace_back(first + r, first + col, column[r]);
                a.emplace_back(3 * static_cast<Index>(v) + col, first + col, 1.0);
            }
            qp.g.segment<3>(first) = block3(u_, blocks[v]);
        }
        // p - J^T j = 0, and the normal velocities' rows on p.
        const Index bounds = upper != nullptr ? 2 * rows : rows;
        VecX d(cRows + bounds);
        d.head(cRows).setZero();
        for (Index r = 0; r < rows; ++r) {
            const Row& row = contacts_[static_cast<std::size_t>(r)];
            const auto side = [&](Index block, bool movable, const Vec3& j, const Vec3& wj, Index variable,
                                  bool normal) {
                if (!movable || block == W.blocks()) return;
                const Index v = variableOf[static_cast<std::size_t>(block)];
                for (int k = 0; k < 3; ++k) {
                    if (j[k] != 0.0) a.emplace_back(3 * v + k, variable, -j[k]);
                    if (!normal || wj[k] == 0.0) continue;
                    c.emplace_back(cRows + r, nj + 3 * v + k, wj[k]);
                    if (upper != nullptr) c.emplace_back(cRows + rows + r, nj + 3 * v + k, -wj[k]);
                }
            };
            for (Index k = 0; k < axes; ++k) {
                const Axis& axis = row.axes[static_cast<std::size_t>(k)];
                const Index variable = r * axes + k;
                side(row.linearA, row.movableA, axis.linearA, axis.wLinearA, variable, k == 0);
                side(row.angularA, row.movableA, axis.angularA, axis.wAngularA, variable, k == 0);
                side(row.linearB, row.movableB, axis.linearB, axis.wLinearB, variable, k == 0);
                side(row.angularB, row.movableB, axis.angularB, axis.wAngularB, variable, k == 0);
            }
            d[cRows + r] = target[r] - freeNormal[r];
            if (upper != nullptr) d[cRows + rows + r] = freeNormal[r] - (*upper)[r];
        }
        qp.H.resize(variables, variables);
        qp.H.setFromTriplets(h.begin(), h.end());
        qp.A.resize(np, variables);
        qp.A.setFromTriplets(a.begin(), a.end());
        qp.b = VecX::Zero(np);
        qp.C.resize(cRows + bounds, variables);
        qp.C.setFromTriplets(c.begin(), c.end());
        qp.d = std::move(d);
        return solveProgram(qp, solution);
    };

    int iterations = 0;
    VecX solution;
    // The friction pyramid's rows on j (FrictionPyramid.h), j_n >= 0 among them (the pyramid
    // says so only when mu > 0).
    std::vector<Triplet> cone;
    Index coneCount = 0;
    for (Index r = 0; r < rows; ++r) {
        const Row& row = contacts_[static_cast<std::size_t>(r)];
        cone.emplace_back(coneCount++, r * perRow, 1.0);
        const FrictionPyramid pyramid = frictionPyramid(row.friction, row.tangents);
        for (int k = 0; k < pyramid.count; ++k, ++coneCount) {
            const PyramidSide& u = pyramid.sides[static_cast<std::size_t>(k)];
            cone.emplace_back(coneCount, r * perRow, u.normal);
            cone.emplace_back(coneCount, r * perRow + 1, u.tangent1);
            if (tangents == 2) cone.emplace_back(coneCount, r * perRow + 2, u.tangent2);
        }
    }
    if (!settings_.hopFix) {
        // The thesis's one program: normal and friction impulses together.
        iterations += solveOver(perRow, std::move(cone), coneCount, nullptr, solution);
    } else {
        // The hop fix. A free normal impulse in the one program buys friction: a box sliding
        // at v_t on a floor is lifted at v_n = (mu v_t - g h) / (1 + mu^2) > 0, because the
        // sliding energy friction takes away is more than the lift costs. So first the normal
        // impulses alone (frictionless: the least kinetic energy that keeps v_n+ >= target),
        // then normal and friction impulses together within the pyramid as in the thesis,
        // but with no point separating faster than the frictionless impulses left it: friction
        // can no longer buy its normal impulse with a lift. The normal impulses may still
        // shift between the points of a body (the front of a sliding box presses harder).
        std::vector<Triplet> positive;
        for (Index r = 0; r < rows; ++r) positive.emplace_back(r, r, 1.0);
        VecX normal;
        iterations += solveOver(1, std::move(positive), rows, nullptr, normal);
        // The normal velocities the frictionless impulses leave: the most friction may leave.
        VecX upper(rows);
        for (Index r = 0; r < rows; ++r) {
            const Row& row = contacts_[static_cast<std::size_t>(r)];
            const Axis& axis = row.axes[0];
            double vn = freeNormal[r];
            const auto add = [&](Index block, bool movable, const Vec3& wj) {
                if (movable && block != W.blocks())
                    vn += wj.dot(normal.segment<3>(rows + 3 * variableOf[static_cast<std::size_t>(block)]));
            };
            add(row.linearA, row.movableA, axis.wLinearA);
            add(row.angularA, row.movableA, axis.wAngularA);
            add(row.linearB, row.movableB, axis.wLinearB);
            add(row.angularB, row.movableB, axis.wAngularB);
            upper[r] = std::max(vn, target[r]) + kSeparationSlack;
        }
        iterations += solveOver(perRow, std::move(cone), coneCount, &upper, solution);
    }
    for (Index r = 0; r < rows; ++r)
        for (Index k = 0; k < perRow; ++k)
            applyImpulse(contacts_[static_cast<std::size_t>(r)].axes[static_cast<std::size_t>(k)],
                         contacts_[static_cast<std::size_t>(r)], solution[r * perRow + k]);
    return iterations;
}

void ObaContact::holdCriticalPoints(const World& world) {
    for (const ContactManifold& m : manifolds_) {
        if (!isMovable(world, m.a) && !isMovable(world, m.b)) continue;
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& p = m.points[static_cast<std::size_t>(i)];
            if (p.separation >= kMargin) continue;
            const Vec3 onA = p.position - 0.5 * p.separation * m.normal,
                       onB = p.position + 0.5 * p.separation * m.normal;
            const HeldPoint point{
                m.a, m.b, p.feature, toColliderFrame(world, m.a, onA), toColliderFrame(world, m.b, onB), m.normal};
            // The same features found again: the fresh reading replaces the held one.
            const auto same = std::find_if(held_.begin(), held_.end(), [&](const HeldPoint& q) {
                return q.a == point.a && q.b == point.b && q.feature == point.feature;
            });
            if (same != held_.end()) *same = point;
            else held_.push_back(point);
        }
    }
}

void ObaContact::buildHeldRows(const World& world) {
    heldRows_.clear();
    const InverseMass& W = world.inverseMass();
    for (const HeldPoint& p : held_) {
        Row& row = heldRows_.emplace_back();
        row.a = p.a;
        row.b = p.b;
        row.movableA = isMovable(world, p.a);
        row.movableB = isMovable(world, p.b);
        const Vec3 onA = fromColliderFrame(world, p.a, p.onA), onB = fromColliderFrame(world, p.b, p.onB);
        Vec3 ra, rb;
        colliderBlocks(world, p.a, onA, row.linearA, row.angularA, ra);
        colliderBlocks(world, p.b, onB, row.linearB, row.angularB, rb);
        for (Index* block : {&row.linearA, &row.angularA, &row.linearB, &row.angularB})
            if (*block < 0) *block = world.velocityBlocks();
        row.separation = p.normal.dot(onB - onA);
        buildAxis(W, row, p.normal, ra, rb, row.axes[0]);
    }
}

ObaContact::PositionProgram ObaContact::solvePositions(World& world) {
    // Schmidl, section 6.1 and appendix A.3.1: move the bodies by delta from where they are
    // so that the total displacement from the targets D + delta is least in the metric of
    // eq. 6.7, 1/2 (D + delta)^T M (D + delta), subject to the separating-plane constraints
    // linearized at the current positions, s + J_n delta >= 0 per point (eqs. 6.18, 6.19 with
    // the plane's normal from the detection, which the thesis also takes anew each iteration
    // instead of moving it by (delta_x, delta_y)). delta = W y keeps what cannot move (fixed,
    // frozen, a planar body's z) in place; then the objective is 1/2 y^T W y + D^T y (M D = p,
    // W p = D) and the constraints s + (W J_n^T)^T y >= 0.
    std::vector<Index> variableOf(static_cast<std::size_t>(world.velocityBlocks() + 1), -1);
    std::vector<Index> blocks;
    std::vector<const Row*> critical;
    for (const Row& row : heldRows_) {
        if (row.separation >= kMargin || row.axes[0].effectiveMass == 0.0) continue;
        critical.push_back(&row);
        const auto use = [&](Index block, bool movable) {
            if (!movable || variableOf[static_cast<std::size_t>(block)] >= 0) return;
            variableOf[static_cast<std::size_t>(block)] = static_cast<Index>(blocks.size());
            blocks.push_back(block);
        };
        use(row.linearA, row.movableA);
        use(row.angularA, row.movableA && row.a.kind == ColliderKind::Rigid);
        use(row.linearB, row.movableB);
        use(row.angularB, row.movableB && row.b.kind == ColliderKind::Rigid);
    }
    if (critical.empty()) return PositionProgram::NothingToDo;
    const Index n = 3 * static_cast<Index>(blocks.size());
    const InverseMass& W = world.inverseMass();
    QuadraticProgram qp;
    std::vector<Triplet> h;
    qp.g.resize(n);
    double scale = 0.0;
    for (std::size_t v = 0; v < blocks.size(); ++v) {
        const Index block = blocks[v];
        for (int c = 0; c < 3; ++c) {
            const Vec3 column = W.apply(block, Vec3::Unit(c));
            for (int r = 0; r < 3; ++r)
                if (column[r] != 0.0)
                    h.emplace_back(3 * static_cast<Index>(v) + r, 3 * static_cast<Index>(v) + c, column[r]);
            scale = std::max(scale, column[c]);
        }
        qp.g.segment<3>(3 * static_cast<Index>(v)) = block3(displacement_, block);
    }
    const double epsilon = kRegularization * (scale > 0.0 ? scale : 1.0);
    for (Index i = 0; i < n; ++i) h.emplace_back(i, i, epsilon);
    qp.H.resize(n, n);
    qp.H.setFromTriplets(h.begin(), h.end());
    qp.A.resize(0, n);
    qp.b.resize(0);
    std::vector<Triplet> c;
    qp.d.resize(static_cast<Index>(critical.size()));
    for (std::size_t i = 0; i < critical.size(); ++i) {
        const Row& row = *critical[i];
        const Axis& normal = row.axes[0];
        const auto add = [&](Index block, const Vec3& wj) {
            const Index v = variableOf[static_cast<std::size_t>(block)];
            if (v < 0) return;
            for (int k = 0; k < 3; ++k)
                if (wj[k] != 0.0) c.emplace_back(static_cast<Index>(i), 3 * v + k, wj[k]);
        };
        add(row.linearA, normal.wLinearA);
        add(row.angularA, normal.wAngularA);
        add(row.linearB, normal.wLinearB);
        add(row.angularB, normal.wAngularB);
        qp.d[static_cast<Index>(i)] = -row.separation;
    }
    // Each component of a body's turn within one program is bounded by kMaxTurn (Schmidl,
    // section 6.1.4): the constraints hold the turn only to first order, and a bigger one
    // could overlap so badly that the next program has no solution. Its shift is bounded
    // too, by its radius of gyration (its size): the planes are those of faces of finite
    // size, which a longer move leaves, and a cube squeezed between two frozen ones, whose
    // contact normals leaned by a few milliradians, slid metres sideways in one program to
    // climb out along them.
    Index rowCount = static_cast<Index>(critical.size());
    std::vector<double> bounds(qp.d.data(), qp.d.data() + qp.d.size());
    const RigidBodies& movingBodies = world.rigidBodies();
    for (std::size_t v = 0; v < blocks.size(); ++v) {
        const Index block = blocks[v];
        if (block < world.particleCount()) continue;
        const Index body = (block - world.particleCount()) / 2;
        const bool angular = (block - world.particleCount()) % 2 == 1;
        const double bound =
            angular ? kMaxTurn : std::sqrt(movingBodies.bodyInertia(body).trace() / movingBodies.mass(body));
        for (int k = 0; k < 3; ++k) {
            const Vec3 row = W.apply(block, Vec3::Unit(k));  // W is symmetric: its row k
            if (row.isZero()) continue;
            for (const double sign : {1.0, -1.0}) {
                for (int col = 0; col < 3; ++col)
                    if (row[col] != 0.0) c.emplace_back(rowCount, 3 * static_cast<Index>(v) + col, sign * row[col]);
                bounds.push_back(-bound);
                ++rowCount;
            }
        }
    }
    qp.d = Eigen::Map<const VecX>(bounds.data(), static_cast<Index>(bounds.size()));
    qp.C.resize(rowCount, n);
    qp.C.setFromTriplets(c.begin(), c.end());
    const QuadraticProgramResult result = solveQuadraticProgram(qp);
    positionIterations_ += result.iterations;
    if (!usable(result)) return PositionProgram::Failed;
    RigidBodies& bodies = world.rigidBodies();
    for (std::size_t v = 0; v < blocks.size(); ++v) {
        const Index block = blocks[v];
        const Vec3 delta = W.apply(block, result.x.segment<3>(3 * static_cast<Index>(v)));
        block3(displacement_, block) += delta;
        if (block < world.particleCount()) {
            world.setPosition(block, world.position(block) + delta);
        } else {
            const Index k = (block - world.particleCount()) / 2;
            const bool angular = (block - world.particleCount()) % 2 == 1;
            bodies.displace(k, angular ? Vec3::Zero() : delta, angular ? delta : Vec3::Zero());
        }
    }
    return PositionProgram::Moved;
}

double ObaContact::updatePositions(World& world, double margin, ContactReport& report) {
    displacement_.setZero(3 * (world.velocityBlocks() + 1));
    held_.clear();
    undo_.clear();
    double worst = 0.0;
    for (int iteration = 0;; ++iteration) {
        detector_.detect(world, margin, manifolds_, settings_.selfCollisionThickness);
        if (detector_.stats().overflow) break;  // afterStep says so
        buildRows(world, false);
        worst = 0.0;
        for (const Row& row : rows_)
            if (row.axes[0].effectiveMass > 0.0) worst = std::max(worst, -row.separation);
        if (iteration == 0) report.maxPenetration = std::max(report.maxPenetration, worst);
        if (worst <= kOverlapTolerance || iteration == kMaxPositionIterations) break;
        // Every point kept apart so far in this step stays in the program: the detection
        // keeps at most four points of a face contact, not always the same four, and a point
        // left out of one program can be pushed into overlap by it.
        holdCriticalPoints(world);
        buildHeldRows(world);
        undo_.push_back(savePoses(world));
        const PositionProgram outcome = solvePositions(world);
        if (outcome == PositionProgram::Moved) continue;
        undo_.pop_back();  // nothing moved
        if (outcome == PositionProgram::NothingToDo) break;
        // A body pressed between frozen ones (woken by a hit, sunk by a step of gravity onto
        // the one below, under the one above) can move neither way: the frozen bodies its
        // overlapping points press on wake (section 6.7.2's waking, for a push instead of a
        // hit), and the program is tried again with them movable.
        if (wakeSqueezing()) continue;
        // No solution (Schmidl, section 6.1.4, table 6.1): the last program's move is rolled
        // back, and the points held so far stay, so that the next program does not repeat
        // its mistake.
        if (undo_.empty()) break;
        restorePoses(world, undo_.back());
        undo_.pop_back();
        ++rollbacks_;
    }
    return worst;
}

bool ObaContact::wakeSqueezing() {
    bool woke = false;
    for (const Row& row : heldRows_) {
        if (row.separation >= -kOverlapTolerance) continue;
        for (const auto& [side, otherMoves] : {std::pair{row.a, row.movableB}, std::pair{row.b, row.movableA}})
            if (otherMoves && side.kind == ColliderKind::Rigid && isFrozen(side.index)) {
                frozen_[static_cast<std::size_t>(side.index)] = 0;
                restTime_[static_cast<std::size_t>(side.index)] = 0.0;
                woke = true;
            }
    }
    return woke;
}

ObaContact::Poses ObaContact::savePoses(const World& world) const {
    Poses poses;
    poses.particles.resize(world.particleCount());
    for (Index i = 0; i < world.particleCount(); ++i) poses.particles[static_cast<std::size_t>(i)] = world.position(i);
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        poses.positions.push_back(bodies.position(k));
        poses.orientations.push_back(bodies.orientation(k));
    }
    poses.displacement = displacement_;
    return poses;
}

void ObaContact::restorePoses(World& world, const Poses& poses) {
    for (Index i = 0; i < world.particleCount(); ++i)
        world.setPosition(i, poses.particles[static_cast<std::size_t>(i)]);
    RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        bodies.setPosition(k, poses.positions[static_cast<std::size_t>(k)]);
        bodies.setOrientation(k, poses.orientations[static_cast<std::size_t>(k)]);
    }
    displacement_ = poses.displacement;
}

int ObaContact::collide(World& world, double threshold, double h) {
    // Schmidl, section 6.2.2: the priority queue first, the fastest approach at a time, for
    // at most as many collisions as there are bodies (a cradle of m balls needs m - 1), each
    // Newton's impact law with Coulomb friction; then one program for what still collides.
    // A point collides when it approaches faster than the step's gravity alone makes a
    // resting point approach (2 |g| h), and, a gap, when the approach closes it within the
    // next step (bounce at a distance, section 6.7.1).
    const auto collides = [&](const Row& row, double vn) {
        return vn < -threshold && row.separation + vn * h < kTouching;
    };
    long movable = 0;
    for (Index i = 0; i < world.particleCount(); ++i) movable += world.isNailed(i) ? 0 : 1;
    for (Index k = 0; k < world.rigidBodyCount(); ++k) movable += world.rigidBodies().isFixed(k) ? 0 : 1;
    long collisions = 0;
    int iterations = 0;
    for (;;) {
        Row* fastest = nullptr;
        double fastestVelocity = 0.0;
        for (Row& row : rows_) {
            const double vn = velocityAlong(row.axes[0], row);
            if (collides(row, vn) && vn < fastestVelocity) {
                fastest = &row;
                fastestVelocity = vn;
            }
        }
        if (fastest == nullptr) return iterations;
        // A collision with a frozen body wakes it (section 6.7.2); its contacts with the
        // frozen and fixed bodies around it come back, so that a hit passes through a
        // frozen pile body by body.
        bool woke = false;
        for (const ColliderRef& side : {fastest->a, fastest->b})
            if (side.kind == ColliderKind::Rigid && isFrozen(side.index)) {
                frozen_[static_cast<std::size_t>(side.index)] = 0;
                restTime_[static_cast<std::size_t>(side.index)] = 0.0;
                woke = true;
            }
        if (woke) {
            buildRows(world, false);
            continue;
        }
        if (collisions == std::max(movable, 1L)) break;
        ++collisions;
        ++iterations;
        Row& row = *fastest;
        const double jn = -(1.0 + row.restitution) * fastestVelocity * row.axes[0].effectiveMass;
        applyImpulse(row.axes[0], row, jn);
        // Friction (the thesis's eq. 4.28): the impulse that stops the sliding, within the cone.
        double j1 = -velocityAlong(row.axes[1], row) * row.axes[1].effectiveMass;
        double j2 = row.tangents == 2 ? -velocityAlong(row.axes[2], row) * row.axes[2].effectiveMass : 0.0;
        const double size = std::hypot(j1, j2), limit = row.friction * jn;
        if (size > limit) {
            j1 *= limit / size;
            j2 *= limit / size;
        }
        applyImpulse(row.axes[1], row, j1);
        if (row.tangents == 2) applyImpulse(row.axes[2], row, j2);
    }
    for (Row& row : rows_) {
        const double vn = velocityAlong(row.axes[0], row);
        row.colliding = collides(row, vn);
        row.target = row.colliding ? -row.restitution * vn : 0.0;
    }
    return iterations + solveImpulses(world, h);
}

void ObaContact::freezeStart(World& world, const VecX& start, double h) {
    // A frozen body is not simulated: the step moved it under gravity, and it is put back,
    // at rest. Only when the step changed its velocity otherwise than gravity does (a
    // spring or the mouse pulled it) does it wake and keep what the step did.
    RigidBodies& bodies = world.rigidBodies();
    const Vec3 g = gravityOf(world);
    const Index momenta = world.configurationDimension() + 3 * world.particleCount();
    const double tolerance = kPullTolerance * g.norm() * h;
    for (Index k = 0; k < bodies.count(); ++k) {
        if (!isFrozen(k)) continue;
        const Vec3 v0 = start.segment<3>(momenta + 6 * k) / bodies.mass(k);
        const bool pulled = (bodies.velocity(k) - v0 - bodies.planarLinear(g) * h).norm() > tolerance ||
                            bodies.angularVelocity(k).norm() > tolerance;
        if (pulled || bodies.isFixed(k)) {
            frozen_[static_cast<std::size_t>(k)] = 0;
            restTime_[static_cast<std::size_t>(k)] = 0.0;
            continue;
        }
        bodies.setPosition(k, frozenPosition_[static_cast<std::size_t>(k)]);
        bodies.setOrientation(k, frozenOrientation_[static_cast<std::size_t>(k)]);
        bodies.setVelocity(k, Vec3::Zero(), Vec3::Zero());
    }
}

void ObaContact::freezeEnd(World& world, double h, double g) {
    // Schmidl, section 6.7.2, eq. 6.48: a body whose kinetic energy is below p_g^2 / (2 m),
    // p_g = m g h the momentum a step of gravity gives it, counts its time at rest; after
    // kFreezeTime at rest it freezes once it touches a fixed or frozen body (or a plane).
    // Freezing spreads up a settled pile in one step, from its support: each body frozen
    // supports the ones at rest on it (the thesis's stack froze after one frame).
    RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        const auto i = static_cast<std::size_t>(k);
        if (bodies.isFixed(k) || frozen_[i] || joined_[i]) continue;
        const double threshold = 0.5 * bodies.mass(k) * g * g * h * h;
        const double kinetic = 0.5 * bodies.mass(k) * bodies.velocity(k).squaredNorm() +
                               0.5 * bodies.angularMomentum(k).dot(bodies.angularVelocity(k));
        restTime_[i] = kinetic < threshold ? restTime_[i] + h : 0.0;
    }
    const auto holds = [&](const ColliderRef& c) {
        return c.kind == ColliderKind::Plane ||
               (c.kind == ColliderKind::Rigid && (bodies.isFixed(c.index) || isFrozen(c.index)));
    };
    const auto freezes = [&](const ColliderRef& c) {
        if (c.kind != ColliderKind::Rigid) return false;
        const auto i = static_cast<std::size_t>(c.index);
        return !bodies.isFixed(c.index) && !frozen_[i] && !joined_[i] && restTime_[i] >= kFreezeTime;
    };
    const auto freeze = [&](Index k) {
        const auto i = static_cast<std::size_t>(k);
        frozen_[i] = 1;
        frozenPosition_[i] = bodies.position(k);
        frozenOrientation_[i] = bodies.orientation(k);
        bodies.setVelocity(k, Vec3::Zero(), Vec3::Zero());
    };
    for (bool spread = true; spread;) {
        spread = false;
        for (const ContactManifold& m : manifolds_) {
            bool touching = false;
            for (int i = 0; i < m.count; ++i)
                touching = touching || m.points[static_cast<std::size_t>(i)].separation <= 0.5 * kMargin;
            if (!touching) continue;
            for (const auto& [side, other] : {std::pair{m.a, m.b}, std::pair{m.b, m.a}})
                if (freezes(side) && holds(other)) {
                    freeze(side.index);
                    spread = true;
                }
        }
    }
}

void ObaContact::afterStep(World& world, const VecX& start, double h, ContactReport& report) {
    const auto begin = std::chrono::steady_clock::now();
    const auto count = static_cast<std::size_t>(world.rigidBodyCount());
    if (frozen_.size() != count) {
        restTime_.assign(count, 0.0);
        frozen_.assign(count, 0);
        frozenPosition_.assign(count, Vec3::Zero());
        frozenOrientation_.assign(count, Quat::Identity());
    }
    joined_.assign(count, 0);
    for (const auto& constraint : world.constraints())
        for (const Anchor& anchor : constraint->anchors())
            if (anchor.isRigid()) joined_[static_cast<std::size_t>(anchor.index())] = 1;
    if (settings_.freezing) freezeStart(world, start, h);
    else std::fill(frozen_.begin(), frozen_.end(), 0);

    // Points are looked for as far out as the fastest body goes in a step (bounce at a
    // distance: a gap it would close is a contact now).
    double fastest = 0.0;
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k)
        if (!bodies.isFixed(k)) fastest = std::max(fastest, bodies.velocity(k).norm());
    for (Index i = 0; i < world.particleCount(); ++i) fastest = std::max(fastest, world.velocity(i).norm());
    const double margin = kMargin + 2.0 * h * fastest;

    positionIterations_ = 0;
    overlapAfterPositions_ = updatePositions(world, margin, report);
    report.iterations += positionIterations_;
    if (detector_.stats().overflow) {
        report.failure = detector_.overflowMessage();
        manifolds_.clear();
        rows_.clear();
        return;
    }

    const Vec3 g = gravityOf(world);
    if (!rows_.empty()) {
        const Index dimension = world.velocityDimension();
        u_.setZero(dimension + 3);
        u_.head(dimension) = world.generalizedVelocities();
        const VecX before = u_;
        report.iterations += collide(world, 2.0 * g.norm() * h, h);
        // Static contact (section 6.3.2): restitution 0 everywhere.
        for (Row& row : rows_) row.target = 0.0;
        report.iterations += solveImpulses(world, h);
        VecX change = u_ - before;
        change.conservativeResize(dimension);
        world.changeVelocities(change);
        if (!world.constraints().empty()) world.constrainVelocities();
        report.contacts += static_cast<int>(contacts_.size());  // those of the static program
    }
    if (settings_.freezing) freezeEnd(world, h, g.norm());
    report.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

}  // namespace tinkerbox
