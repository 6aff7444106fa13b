-- Build entry point following the kit-app-template (Kit 107.3) conventions. Written from the
-- template's layout; not run here (the repo tooling needs NVIDIA's packman).
-- The extension is pure Python and also runs straight from exts/ with --ext-folder (no build);
-- this file only matters when `./repo.sh build` packages it.

-- Shared build helpers and the Kit template setup from repo_kit_tools (as in kit-app-template).
repo_build = require("omni/repo/build")
local kit = require("_repo/deps/repo_kit_tools/kit-template/premake5-kit")
kit.setup_all({ cppdialect = "C++17" })

-- One Python extension: link its folders into the build's extension target directory, as the
-- template's per-extension premake5.lua does (config, data, docs and the top-level package folder).
local function define_python_ext(ext_dir)
    local ext = get_current_extension_info()
    project_ext(ext)
    repo_build.prebuild_link({
        { ext_dir .. "/config", ext.target_dir .. "/config" },
        { ext_dir .. "/data", ext.target_dir .. "/data" },
        { ext_dir .. "/docs", ext.target_dir .. "/docs" },
        { ext_dir .. "/omni", ext.target_dir .. "/omni" },
    })
end

define_python_ext("exts/omni.simready.physics_validator")
