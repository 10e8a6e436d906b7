#version 330 core
// A spring, rod or rubber band: an instanced quad between two projected points, its width
// in pixels. Endpoints behind the camera are first moved along the segment to the near plane.
// A piece of a hair strand (fibre = 1) is lit by its tangent t as a thin fibre (Kajiya & Kay,
// Rendering Fur with Three Dimensional Textures, SIGGRAPH 1989): diffuse sin(t, light), and a
// highlight sin(t, half vector)^64.
layout(location = 0) in vec2 corner;  // x: 0 at a, 1 at b; y: -1 .. 1 across
layout(location = 1) in vec3 pointA;
layout(location = 2) in vec3 pointB;
layout(location = 3) in float width;  // pixels
layout(location = 4) in vec4 lineColor;
layout(location = 5) in float dashed;

uniform mat4 viewProjection;
uniform vec2 viewport;
uniform float fibre;
uniform vec3 lightDirection;  // unit, toward the light
uniform vec3 eye;
uniform vec3 forward;
uniform float orthographic;  // 1 in the 2D view

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
    if (fibre > 0.5) {
        vec3 t = pointB - pointA;
        t = length(t) > 0.0 ? normalize(t) : vec3(0.0);
        vec3 towardEye = orthographic > 0.5 ? -forward : normalize(eye - 0.5 * (pointA + pointB));
        float tl = dot(t, lightDirection);
        float th = dot(t, normalize(lightDirection + towardEye));
        float diffuse = sqrt(max(1.0 - tl * tl, 0.0));
        float highlight = pow(sqrt(max(1.0 - th * th, 0.0)), 64.0);
        colorOut.rgb = lineColor.rgb * (0.35 + 0.65 * diffuse) + vec3(0.3 * highlight);
    }
    dash = dashed;
}
