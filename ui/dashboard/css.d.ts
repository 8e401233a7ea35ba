// Stylesheets are bundled as text (esbuild loader `.css: text`, ui/dashboard/build.mjs).
declare module '*.css' {
  const text: string;
  export default text;
}
