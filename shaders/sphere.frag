#version 330 core
// The sphere under this pixel: the ray from the eye (2D: along the view) meets it, or the
// pixel is discarded. Lit as body.frag, shaded in alternate octants of the body frame so
// that its rotation shows, with an outline of constant pixel width at the silhouette.
in vec3 squarePoint;
flat in vec3 sphereCenter;
flat in float sphereRadius;
flat in vec4 bodyOrientation;
flat in vec4 fillColor;
flat in vec4 outlineColor;
flat in float outlinePixels;
flat in vec2 bodyFlags;

uniform mat4 viewProjection;
uniform vec3 eye;
uniform vec3 forward;
uniform float orthographic;
uniform float pixelSize;              // world length of a pixel (2D)
uniform float pixelSizePerDistance;   // its growth with distance (3D)
uniform vec3 lightDirection;

out vec4 color;

vec3 bodyColor(vec3 base, vec2 flags) {
    if (flags.y > 0.5) {
        base *= 0.6;
        if (mod(gl_FragCoord.x + gl_FragCoord.y, 9.0) < 3.0) base *= 0.7;
    }
    if (flags.x > 0.5) base = mix(base, vec3(1.0), 0.25);
    return base;
}

void main() {
    vec3 direction = orthographic > 0.5 ? forward : normalize(squarePoint - eye);
    // |o + t d - c|^2 = r^2 with |d| = 1; the square lies in front of the whole sphere.
    vec3 oc = squarePoint - sphereCenter;
    float b = dot(oc, direction);
    float c = dot(oc, oc) - sphereRadius * sphereRadius;
    float discriminant = b * b - c;
    if (discriminant < 0.0) discard;
    vec3 hit = squarePoint + (-b - sqrt(discriminant)) * direction;
    vec4 clip = viewProjection * vec4(hit, 1.0);
    gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;

    // How far inside the silhouette: the radius less the ray's distance from the centre.
    float missDistance = sqrt(max(dot(oc, oc) - b * b, 0.0));
    float pixel = orthographic > 0.5 ? pixelSize : pixelSizePerDistance * dot(sphereCenter - eye, forward);
    if (sphereRadius - missDistance < outlinePixels * pixel) {
        color = vec4(outlineColor.rgb, 1.0);
        return;
    }
    vec3 n = (hit - sphereCenter) / sphereRadius;
    vec4 q = vec4(-bodyOrientation.xyz, bodyOrientation.w);  // world to body
    vec3 t = 2.0 * cross(q.xyz, n);
    vec3 body = n + q.w * t + cross(q.xyz, t);
    float octant = body.x * body.y * body.z > 0.0 ? 1.0 : 0.8;
    float light = 0.35 + 0.65 * max(dot(n, lightDirection), 0.0);
    color = vec4(bodyColor(fillColor.rgb * octant, bodyFlags) * light, 1.0);
}
