/** A stylesheet imported for its effect (Vite loads it with the module that imports it). */
declare module '*.css';
