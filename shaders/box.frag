#version 330 core
// A box face, lit as body.frag, with the box's outline drawn inside the face along its
// four edges: the full outline width where the face meets the silhouette, half where the
// face beyond the edge is seen too and draws the other half.
in vec3 cubePoint;
in vec3 worldPoint;
flat in vec3 cubeNormal;
flat in vec4 bodyOrientation;
flat in vec3 worldNormal;
flat in vec4 fillColor;
flat in vec4 outlineColor;
flat in float outlinePixels;
flat in vec2 bodyFlags;

uniform vec3 lightDirection;  // unit, toward the light
uniform vec3 eye;
uniform vec3 forward;
uniform float orthographic;  // 1 in the 2D view

out vec4 color;

vec3 rotate(vec4 q, vec3 v) {
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

vec3 bodyColor(vec3 base, vec2 flags) {
    if (flags.y > 0.5) {
        base *= 0.6;
        if (mod(gl_FragCoord.x + gl_FragCoord.y, 9.0) < 3.0) base *= 0.7;
    }
    if (flags.x > 0.5) base = mix(base, vec3(1.0), 0.25);
    return base;
}

void main() {
    vec3 towardEye = orthographic > 0.5 ? -forward : eye - worldPoint;
    // Pixels to an edge: along an axis in the face, the distance of the cube point from
    // +-0.5 over the length of its screen-space gradient.
    vec3 dx = dFdx(cubePoint), dy = dFdy(cubePoint);
    float rim = 0.0;
    for (int i = 0; i < 3; ++i) {
        if (abs(cubeNormal[i]) > 0.5) continue;
        float edgePixels = (0.5 - abs(cubePoint[i])) / max(length(vec2(dx[i], dy[i])), 1e-7);
        vec3 beyond = vec3(0.0);
        beyond[i] = sign(cubePoint[i]);  // the normal of the face across the nearer edge
        float width = dot(rotate(bodyOrientation, beyond), towardEye) > 0.0 ? 0.5 * outlinePixels : outlinePixels;
        rim = max(rim, clamp(width - edgePixels + 0.5, 0.0, 1.0));
    }
    float light = 0.35 + 0.65 * max(dot(worldNormal, lightDirection), 0.0);
    vec3 face = bodyColor(fillColor.rgb, bodyFlags) * light;
    color = vec4(mix(face, outlineColor.rgb, rim), 1.0);
}
