import { createPinia } from 'pinia'
import { createApp } from 'vue'
import 'element-plus/theme-chalk/dark/css-vars.css'
import './styles/app.css'
import App from './App.vue'
import { createAppRouter } from './router'

const app = createApp(App)
app.use(createPinia())
app.use(createAppRouter())
app.mount('#app')
