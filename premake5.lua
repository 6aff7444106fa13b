-- Build entry point in the kit-app-template (Kit 107.3) layout. Written from the template's structure
-- (NVIDIA-Omniverse/kit-app-template branch 107.3: premake5.lua, templates/extensions/python_ui/template/
-- premake5.lua) and Isaac Sim's extension include loop (isaac-sim/IsaacSim v5.1.0 premake5.lua:116-124);
-- not run here (the repo tooling needs NVIDIA's packman). The extension is pure Python and also runs straight
-- from exts/ with --ext-folder (no build): this file only matters for `./repo.sh build`.
--
-- The root script only sets the tooling up; each extension's own premake5.lua (in its folder) names the
-- extension: get_current_extension_info() takes the name of the folder of the script that calls it, so it
-- must not be called from here (it would name the extension after the repository folder).

repo_build = require("omni/repo/build")
root = repo_build.get_abs_path(".")

local kit = require("_repo/deps/repo_kit_tools/kit-template/premake5-kit")
kit.setup_all({ cppdialect = "C++17" })

-- Every extension folder under exts/ that has a premake5.lua. Whether repo_kit_tools also discovers
-- exts/* on its own (the template keeps extensions in source/extensions/) is not known here: this loop
-- makes it explicit.
group("exts")
for _, ext in ipairs(os.matchdirs(root .. "/exts/*")) do
    if os.isfile(ext .. "/premake5.lua") then
        include(ext)
    end
end
