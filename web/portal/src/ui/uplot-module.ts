// uPlot and its stylesheet, fetched as their own chunk the first time a chart is drawn (ui/day-chart.tsx):
// the charts sit low on one page, and the first load of every other page stays without them.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export default uPlot;
