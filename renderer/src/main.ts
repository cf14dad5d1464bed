import { createPinia } from 'pinia'
import { createApp } from 'vue'
import 'element-plus/theme-chalk/dark/css-vars.css'
// Services called from script (ElMessage, ElMessageBox) are not seen by the template resolver.
import 'element-plus/es/components/message/style/css'
import 'element-plus/es/components/message-box/style/css'
import './styles/app.css'
import App from './App.vue'
import { createAppRouter } from './router'

const app = createApp(App)
app.use(createPinia())
app.use(createAppRouter())
app.mount('#app')
