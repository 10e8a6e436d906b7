#version 330 core
// Plain triangles and lines with a colour per vertex: the fills of planes, and the thin
// segments of dense models.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 vertexColor;

uniform mat4 viewProjection;

out vec4 colorOut;

void main() {
    gl_Position = viewProjection * vec4(position, 1.0);
    colorOut = vertexColor;
}
