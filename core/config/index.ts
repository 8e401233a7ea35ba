export { getConfig } from './get-config.ts';
export { getConfigOrigins } from './get-config-origins.ts';
export { getConfigOverride } from './get-config-override.ts';
export { setConfigOverride } from './set-config-override.ts';
export { updateConfigOverride } from './update-config-override.ts';
export { resetConfigOverrideKeys } from './reset-config-override-keys.ts';
export { getConfigSource, unlinkConfigSource } from './config-source.ts';
export { loadConfigLayers, renderLayers, saveConfigLevel, writeLegacyConfigChange } from './store.ts';
export { applyOverridePatch } from './format.ts';
