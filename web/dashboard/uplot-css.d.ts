/** uPlot's stylesheet, imported by web/dashboard/Chart.tsx into the dashboard's styles. */
declare module 'uplot/dist/uPlot.min.css';
