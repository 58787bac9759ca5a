/** uPlot's stylesheet, imported by web/dashboard/Chart.tsx into the dashboard's styles. */
declare module 'uplot/dist/uPlot.min.css';

/** A file's URL once built (Vite's `?url`): uPlot's script, loaded on demand by Chart.tsx. */
declare module '*?url' {
  const url: string;
  export default url;
}
