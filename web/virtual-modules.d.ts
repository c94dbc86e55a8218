/** The boot script of a guest's reading page, compiled and minified (vite.boot.ts). */
declare module 'virtual:boot-script' {
  const code: string;
  export default code;
}
