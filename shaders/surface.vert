#version 330 core
// Cloth surfaces: vertices in the world with their smooth normals, drawn `lift` nearer the
// viewer along their view rays: the same pixels, a nearer depth.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

uniform mat4 viewProjection;
uniform vec3 eye;
uniform vec3 forward;
uniform float orthographic;  // 1 in the 2D view
uniform float lift;          // world

out vec3 worldNormal;

void main() {
    vec3 towardEye = orthographic > 0.5 ? -forward : normalize(eye - position);
    float reach = orthographic > 0.5 ? lift : min(lift, 0.5 * distance(eye, position));
    gl_Position = viewProjection * vec4(position + reach * towardEye, 1.0);
    worldNormal = normal;
}
