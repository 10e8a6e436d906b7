#version 330 core
// A sphere body, ray cast: an instanced square facing the eye, tangent to the sphere's
// front, which covers the sphere's image in either projection. sphere.frag finds the hit.
layout(location = 0) in vec2 corner;  // (-1, -1) .. (1, 1)
layout(location = 1) in vec3 center;
layout(location = 2) in float radius;
layout(location = 3) in vec4 orientation;  // x, y, z, w
layout(location = 4) in vec4 fill;
layout(location = 5) in vec4 outline;
layout(location = 6) in float outlineWidth;  // pixels
layout(location = 7) in vec2 flags;  // selected, fixed

uniform mat4 viewProjection;
uniform vec3 eye;
uniform vec3 forward;
uniform float orthographic;  // 1 in the 2D view

out vec3 squarePoint;
flat out vec3 sphereCenter;
flat out float sphereRadius;
flat out vec4 bodyOrientation;
flat out vec4 fillColor;
flat out vec4 outlineColor;
flat out float outlinePixels;
flat out vec2 bodyFlags;

void main() {
    vec3 towardEye = orthographic > 0.5 ? -forward : normalize(eye - center);
    vec3 u = normalize(cross(towardEye, abs(towardEye.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0)));
    vec3 w = cross(towardEye, u);
    // Seen from a distance d, the image of the sphere at the tangent plane has radius
    // r sqrt((d - r) / (d + r)) < r: the square of half side r covers it.
    squarePoint = center + radius * (towardEye + corner.x * u + corner.y * w);
    gl_Position = viewProjection * vec4(squarePoint, 1.0);
    sphereCenter = center;
    sphereRadius = radius;
    bodyOrientation = orientation;
    fillColor = fill;
    outlineColor = outline;
    outlinePixels = outlineWidth;
    bodyFlags = flags;
}
