#version 330 core
// The event's colour, as given: the palette is the CPU's (Palette.cpp).

in vec4 fragmentColour;
out vec4 outColour;

void main() { outColour = fragmentColour; }
