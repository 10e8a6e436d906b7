#version 330 core
in vec4 colorOut;
out vec4 color;

void main() { color = colorOut; }
