-- omni.simready.physics_validator: the extension's name and version come from this folder's name and
-- config/extension.toml (get_current_extension_info(), as in kit-app-template's per-extension premake5.lua).
-- Pure Python: only its folders are linked into the build's extension directory. Not run here.
local ext = get_current_extension_info()

project_ext(ext)

repo_build.prebuild_link {
    { "data", ext.target_dir .. "/data" },
    { "docs", ext.target_dir .. "/docs" },
    { "omni", ext.target_dir .. "/omni" },
}
