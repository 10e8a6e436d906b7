# Turns the GLSL files in shaders/ into a header of string constants, so that the app
# carries its shaders and finds them wherever it runs.
#   cmake -DOUTPUT=Shaders.h -DINPUTS="a.vert;b.frag" -P EmbedShaders.cmake
# disc.vert becomes tinkerbox::shaders::kDiscVert.
set(text "// Generated from shaders/ by cmake/EmbedShaders.cmake: edit the .vert and .frag files.\n")
string(APPEND text "#pragma once\n\nnamespace tinkerbox::shaders {\n\n")
foreach(file IN LISTS INPUTS)
  get_filename_component(base "${file}" NAME_WE)
  get_filename_component(extension "${file}" EXT)
  string(SUBSTRING "${extension}" 1 -1 extension)
  set(name "")
  foreach(part IN ITEMS "${base}" "${extension}")
    string(SUBSTRING "${part}" 0 1 first)
    string(TOUPPER "${first}" first)
    string(SUBSTRING "${part}" 1 -1 rest)
    string(APPEND name "${first}${rest}")
  endforeach()
  file(READ "${file}" source)
  string(APPEND text "inline constexpr const char* k${name} = R\"GLSL(${source})GLSL\";\n\n")
endforeach()
string(APPEND text "}  // namespace tinkerbox::shaders\n")
file(WRITE "${OUTPUT}" "${text}")
