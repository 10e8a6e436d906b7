#version 330 core
in vec2 pixelOffset;
flat in float discRadius;
flat in vec4 fillColor;
flat in vec4 outlineColor;
flat in float outlinePixels;

out vec4 color;

void main() {
    float d = length(pixelOffset);
    float coverage = clamp(discRadius + 0.5 - d, 0.0, 1.0);
    if (coverage <= 0.0) discard;
    float rim = clamp(d - (discRadius - outlinePixels) + 0.5, 0.0, 1.0);
    vec4 c = mix(fillColor, outlineColor, rim);
    color = vec4(c.rgb, c.a * coverage);
}
