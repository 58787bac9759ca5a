/** uPlot's stylesheet, loaded with the chart (web/dashboard/Chart.tsx): Vite adds it to the page. */
declare module 'uplot/dist/uPlot.min.css';
