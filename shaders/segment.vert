#version 330 core
// A spring, rod or rubber band: an instanced quad between two projected points, its width
// in pixels. Endpoints behind the camera are first moved along the segment to the near plane.
layout(location = 0) in vec2 corner;  // x: 0 at a, 1 at b; y: -1 .. 1 across
layout(location = 1) in vec3 pointA;
layout(location = 2) in vec3 pointB;
layout(location = 3) in float width;  // pixels
layout(location = 4) in vec4 lineColor;
layout(location = 5) in float dashed;

uniform mat4 viewProjection;
uniform vec2 viewport;

out float across;      // pixels from the centre line
out float along;       // pixels from a
flat out float halfWidth;
flat out vec4 colorOut;
flat out float dash;

const float nearW = 1e-3;

void main() {
    vec4 a = viewProjection * vec4(pointA, 1.0);
    vec4 b = viewProjection * vec4(pointB, 1.0);
    if (a.w < nearW && b.w < nearW) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // wholly behind the camera
        return;
    }
    if (a.w < nearW) a = mix(a, b, (nearW - a.w) / (b.w - a.w));
    if (b.w < nearW) b = mix(b, a, (nearW - b.w) / (a.w - b.w));
    vec2 sa = (a.xy / a.w * 0.5 + 0.5) * viewport;
    vec2 sb = (b.xy / b.w * 0.5 + 0.5) * viewport;
    vec2 direction = sb - sa;
    float pixels = max(length(direction), 1e-6);
    direction /= pixels;
    vec2 normal = vec2(-direction.y, direction.x);
    halfWidth = 0.5 * width;
    float extent = halfWidth + 1.0;
    vec2 screen = mix(sa, sb, corner.x) + normal * corner.y * extent + direction * (corner.x * 2.0 - 1.0) * 1.0;
    vec4 clip = mix(a, b, corner.x);
    gl_Position = vec4((screen / viewport * 2.0 - 1.0) * clip.w, clip.z, clip.w);
    across = corner.y * extent;
    along = corner.x * pixels;
    colorOut = lineColor;
    dash = dashed;
}
